-- doogit schema, version 20: shared todos. A repository's todos kept, for everyone who can read
-- it, on a branch of that repository (`repo share`), exchanged as the remote's files are.

-- The repositories whose todos are shared from here, and what this machine last knew of each
-- one's branch: its commit and the ETag of its last read (a settled branch is a free 304), the
-- repository's ETag and what that read said (public, and whether the token may push), whether
-- this machine's todos went there, and how many changes waited the last time a sync said so.
CREATE TABLE shares (
    repository_id   INTEGER PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
    branch          TEXT    NOT NULL,
    head_commit     TEXT,
    ref_etag        TEXT,
    repository_etag TEXT,
    is_public       INTEGER NOT NULL DEFAULT 0 CHECK (is_public IN (0, 1)),
    public_allowed  INTEGER NOT NULL DEFAULT 0 CHECK (public_allowed IN (0, 1)),
    can_push        INTEGER CHECK (can_push IN (0, 1)),
    exchanged       INTEGER NOT NULL DEFAULT 0 CHECK (exchanged IN (0, 1)),
    exchanged_at    TEXT,
    -- Since when GitHub no longer shows this repository to the token (NULL: it does): what was
    -- last seen is kept, marked as such.
    unreadable_since TEXT,
    waiting_noted   INTEGER NOT NULL DEFAULT 0,
    added_at        TEXT    NOT NULL
);

-- Each shared branch's files and folders as this machine last read or wrote them (as
-- `remote_files` for the remote).
CREATE TABLE share_files (
    repository_id  INTEGER NOT NULL REFERENCES shares (repository_id) ON DELETE CASCADE,
    path           TEXT    NOT NULL,
    sha            TEXT    NOT NULL,
    mode           TEXT    NOT NULL,
    content        TEXT,
    first_since    INTEGER,
    last_since     INTEGER,
    oldest_removal TEXT,
    PRIMARY KEY (repository_id, path)
) WITHOUT ROWID;

-- Whether a tracked repository that is not shared from here has a shared branch, as last looked
-- for: at the repository's `pushed_at` then (a branch made since moves it), with the ETag of that
-- look (the next is a free 304 while no such branch comes or goes), and whether it was said. A
-- repository counts as looked at when it is first tracked (`repo add` looks itself); no branch
-- could exist before this version.
CREATE TABLE share_checks (
    repository_id INTEGER PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
    pushed_at     TEXT,
    etag          TEXT,
    found         INTEGER NOT NULL DEFAULT 0 CHECK (found IN (0, 1)),
    noted         INTEGER NOT NULL DEFAULT 0 CHECK (noted IN (0, 1))
);
INSERT INTO share_checks (repository_id, pushed_at) SELECT id, pushed_at FROM repositories;
CREATE TRIGGER repository_tracked_share_check AFTER INSERT ON repositories BEGIN
    INSERT OR IGNORE INTO share_checks (repository_id, pushed_at) VALUES (NEW.id, NEW.pushed_at);
END;

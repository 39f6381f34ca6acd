-- doogit schema, version 20: shared todos. A repository's todos kept, for everyone who can read
-- it, on a branch of that repository (`repo share`), exchanged as the remote's files are.

-- The repositories whose todos are shared from here, and what this machine last knew of each
-- one's branch: its commit and the ETag of its last read (a settled branch is a free 304), the
-- repository's ETag and what that read said (public, and whether the token may push), and how
-- many changes waited the last time a sync said so.
CREATE TABLE shares (
    repository_id   INTEGER PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
    branch          TEXT    NOT NULL,
    head_commit     TEXT,
    ref_etag        TEXT,
    repository_etag TEXT,
    is_public       INTEGER NOT NULL DEFAULT 0 CHECK (is_public IN (0, 1)),
    public_allowed  INTEGER NOT NULL DEFAULT 0 CHECK (public_allowed IN (0, 1)),
    can_push        INTEGER CHECK (can_push IN (0, 1)),
    -- Since when GitHub no longer shows this repository to the token (NULL: it does): what was
    -- last seen is kept, marked as such.
    unreadable_since TEXT,
    waiting_noted   INTEGER NOT NULL DEFAULT 0,
    added_at        TEXT    NOT NULL
);

-- Each shared branch's files and folders as this machine last read or wrote them (as
-- `remote_files` for the remote). They outlive an unshare: shared again, what differs from them
-- here is what goes.
CREATE TABLE share_files (
    repository_id  INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
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

-- Whether a todo is kept private (file format 4.2): never written to its repository's shared
-- branch, though it goes to this user's remote like any other. A register with its own stamp.
ALTER TABLE todos ADD COLUMN kept_private INTEGER NOT NULL DEFAULT 0 CHECK (kept_private IN (0, 1));
ALTER TABLE todos ADD COLUMN kept_private_clock TEXT;
ALTER TABLE todo_tombstones ADD COLUMN kept_private INTEGER NOT NULL DEFAULT 0 CHECK (kept_private IN (0, 1));
ALTER TABLE todo_tombstones ADD COLUMN kept_private_clock TEXT;

-- A change of it waits to be sent like any other.
DROP TRIGGER todo_changed;
CREATE TRIGGER todo_changed AFTER UPDATE OF repository_id, text, done, done_at, repository_clock, text_clock, done_clock,
    removed_clock, issue_number, issue_url, issue_clock, seen_number, seen_state, seen_title, seen_url, seen_updated_at,
    seen_at, seen_clock, seen_labels, due, priority, note, due_clock, priority_clock, tags_clock, note_clock,
    author, finished_by, assignee, author_clock, finished_by_clock, assignee_clock, kept_private, kept_private_clock ON todos
    WHEN (OLD.repository_id IS NOT NEW.repository_id OR OLD.text IS NOT NEW.text
        OR OLD.done IS NOT NEW.done OR OLD.done_at IS NOT NEW.done_at OR OLD.repository_clock IS NOT NEW.repository_clock
        OR OLD.text_clock IS NOT NEW.text_clock OR OLD.done_clock IS NOT NEW.done_clock OR OLD.removed_clock IS NOT NEW.removed_clock
        OR OLD.issue_number IS NOT NEW.issue_number OR OLD.issue_url IS NOT NEW.issue_url OR OLD.issue_clock IS NOT NEW.issue_clock
        OR OLD.seen_number IS NOT NEW.seen_number OR OLD.seen_state IS NOT NEW.seen_state OR OLD.seen_title IS NOT NEW.seen_title
        OR OLD.seen_url IS NOT NEW.seen_url OR OLD.seen_updated_at IS NOT NEW.seen_updated_at OR OLD.seen_at IS NOT NEW.seen_at
        OR OLD.seen_clock IS NOT NEW.seen_clock OR OLD.seen_labels IS NOT NEW.seen_labels OR OLD.due IS NOT NEW.due OR OLD.priority IS NOT NEW.priority
        OR OLD.note IS NOT NEW.note OR OLD.due_clock IS NOT NEW.due_clock OR OLD.priority_clock IS NOT NEW.priority_clock
        OR OLD.tags_clock IS NOT NEW.tags_clock OR OLD.note_clock IS NOT NEW.note_clock
        OR OLD.author IS NOT NEW.author OR OLD.finished_by IS NOT NEW.finished_by OR OLD.assignee IS NOT NEW.assignee
        OR OLD.author_clock IS NOT NEW.author_clock OR OLD.finished_by_clock IS NOT NEW.finished_by_clock
        OR OLD.assignee_clock IS NOT NEW.assignee_clock OR OLD.kept_private IS NOT NEW.kept_private
        OR OLD.kept_private_clock IS NOT NEW.kept_private_clock) BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
    INSERT INTO remote_pending_todos SELECT OLD.uuid, OLD.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = OLD.uuid AND repository_id = OLD.repository_id);
END;

-- A doogit of 4.1 kept `private` of files of 4.2 only in those files: the next exchange reads
-- the remote's files whole once, so that it is merged here too.
DELETE FROM remote_files;
UPDATE remote SET head_commit = NULL, ref_etag = NULL;

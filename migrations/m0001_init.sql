-- doogit schema, version 1. Migrations only ever move forward: never edit a released file,
-- add the next mNNNN_*.sql instead (and list it in Sources/DoogitStore/Migrations.swift).
-- Timestamps are RFC 3339 text in UTC with milliseconds, which sorts correctly as text.

-- A section of the todo list: a GitHub repository, keyed by GitHub's numeric id so that it
-- keeps its todos through renames and transfers.
CREATE TABLE repositories (
    id           INTEGER PRIMARY KEY,          -- GitHub's repository id
    owner        TEXT    NOT NULL CHECK (owner <> ''),
    name         TEXT    NOT NULL CHECK (name <> ''),
    full_name    TEXT    NOT NULL CHECK (full_name <> ''),
    description  TEXT,                         -- GitHub sends null for none
    html_url     TEXT    NOT NULL,
    private      INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    archived     INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
    gone         INTEGER NOT NULL DEFAULT 0 CHECK (gone IN (0, 1)),  -- GitHub no longer returns it
    pushed_at    TEXT,                         -- as GitHub reports it
    remote_updated_at TEXT,                    -- as GitHub reports it
    etag         TEXT,                         -- for conditional requests
    added_at     TEXT    NOT NULL,
    synced_at    TEXT    NOT NULL              -- last time GitHub's copy was read
);
CREATE INDEX repositories_full_name ON repositories (full_name COLLATE NOCASE);
CREATE INDEX repositories_name ON repositories (name COLLATE NOCASE);

-- An item of a section. `id` is the short local id users type (AUTOINCREMENT: never reused);
-- `uuid` identifies the todo on every machine and in every export.
CREATE TABLE todos (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid          TEXT    NOT NULL UNIQUE CHECK (length(uuid) = 36),
    repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    text          TEXT    NOT NULL CHECK (trim(text) <> ''),
    done          INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    position      INTEGER NOT NULL,            -- order within the repository
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    done_at       TEXT,
    CHECK ((done = 1) = (done_at IS NOT NULL))
);
CREATE INDEX todos_repository ON todos (repository_id, done, position);

-- Removed todos, remembered by uuid so that a removal can travel to other machines and to a
-- linked GitHub issue instead of the todo coming back from a stale copy.
CREATE TABLE todo_tombstones (
    uuid          TEXT PRIMARY KEY,
    repository_id INTEGER NOT NULL,
    removed_at    TEXT NOT NULL
) WITHOUT ROWID;

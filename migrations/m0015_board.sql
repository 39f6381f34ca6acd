-- doogit schema, version 15: the board, the todos as a Markdown task list in issues of the
-- remote repository, kept in step both ways.

-- Whether the board is kept, as asked here (`board on`, `board off`) for the next exchange to
-- write in the remote's file, which holds it for every machine; and what this machine knows of
-- the board: the ETag of the listing of its issues (an unchanged board is a free 304), when it
-- was last read and written, and what the last read that brought anything brought.
ALTER TABLE remote ADD COLUMN board_on         INTEGER CHECK (board_on IN (0, 1));
ALTER TABLE remote ADD COLUMN board_clock      TEXT;
ALTER TABLE remote ADD COLUMN board_etag       TEXT;
ALTER TABLE remote ADD COLUMN board_read_at    TEXT;
ALTER TABLE remote ADD COLUMN board_written_at TEXT;
ALTER TABLE remote ADD COLUMN board_last_read  TEXT;

-- The board's issues, a part each, as last read or written here: its number and address, its
-- body, and GitHub's `updated_at` of that body (the time of a person's edits read from it).
CREATE TABLE board_issues (
    part       INTEGER PRIMARY KEY CHECK (part >= 1),
    number     INTEGER NOT NULL CHECK (number >= 1),
    url        TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
) WITHOUT ROWID;

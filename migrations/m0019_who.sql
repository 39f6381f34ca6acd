-- doogit schema, version 19: who added a todo, who finished it and who it is assigned to (file
-- format 4.1), as GitHub logins, each a register with its own stamp, on live todos and removed
-- ones alike; and the login of the token each API origin was last used with.
-- A login is letters, digits, '-' and '_', 1 to 100 of them, not starting with '-' (GitHubLogin).
ALTER TABLE todos ADD COLUMN author            TEXT CHECK (author IS NULL OR (length(author) BETWEEN 1 AND 100
                                                   AND author NOT GLOB '*[^A-Za-z0-9_-]*' AND author NOT GLOB '-*'));
ALTER TABLE todos ADD COLUMN finished_by       TEXT CHECK (finished_by IS NULL OR (length(finished_by) BETWEEN 1 AND 100
                                                   AND finished_by NOT GLOB '*[^A-Za-z0-9_-]*' AND finished_by NOT GLOB '-*'));
ALTER TABLE todos ADD COLUMN assignee          TEXT CHECK (assignee IS NULL OR (length(assignee) BETWEEN 1 AND 100
                                                   AND assignee NOT GLOB '*[^A-Za-z0-9_-]*' AND assignee NOT GLOB '-*'));
ALTER TABLE todos ADD COLUMN author_clock      TEXT;
ALTER TABLE todos ADD COLUMN finished_by_clock TEXT;
ALTER TABLE todos ADD COLUMN assignee_clock    TEXT;
ALTER TABLE todo_tombstones ADD COLUMN author            TEXT CHECK (author IS NULL OR (length(author) BETWEEN 1 AND 100
                                                   AND author NOT GLOB '*[^A-Za-z0-9_-]*' AND author NOT GLOB '-*'));
ALTER TABLE todo_tombstones ADD COLUMN finished_by       TEXT CHECK (finished_by IS NULL OR (length(finished_by) BETWEEN 1 AND 100
                                                   AND finished_by NOT GLOB '*[^A-Za-z0-9_-]*' AND finished_by NOT GLOB '-*'));
ALTER TABLE todo_tombstones ADD COLUMN assignee          TEXT CHECK (assignee IS NULL OR (length(assignee) BETWEEN 1 AND 100
                                                   AND assignee NOT GLOB '*[^A-Za-z0-9_-]*' AND assignee NOT GLOB '-*'));
ALTER TABLE todo_tombstones ADD COLUMN author_clock      TEXT;
ALTER TABLE todo_tombstones ADD COLUMN finished_by_clock TEXT;
ALTER TABLE todo_tombstones ADD COLUMN assignee_clock    TEXT;

-- The user behind the token, as GitHub last said (GET /user): "me" of `todo list --mine`, and
-- the author of what is added here. No token is kept here: a fingerprint of it tells a sync
-- that another token is in use, whose user it asks again.
CREATE TABLE github_logins (
    origin            TEXT PRIMARY KEY,                       -- the API's scheme, host and port
    login             TEXT NOT NULL CHECK (length(login) BETWEEN 1 AND 100),
    token_fingerprint TEXT,                                   -- the first 16 hex digits of SHA-1 of the token
    seen_at           TEXT NOT NULL                           -- RFC 3339, UTC
) WITHOUT ROWID;

-- A change of the new fields waits to be sent like any other.
DROP TRIGGER todo_changed;
CREATE TRIGGER todo_changed AFTER UPDATE OF repository_id, text, done, done_at, repository_clock, text_clock, done_clock,
    removed_clock, issue_number, issue_url, issue_clock, seen_number, seen_state, seen_title, seen_url, seen_updated_at,
    seen_at, seen_clock, seen_labels, due, priority, note, due_clock, priority_clock, tags_clock, note_clock,
    author, finished_by, assignee, author_clock, finished_by_clock, assignee_clock ON todos
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
        OR OLD.assignee_clock IS NOT NEW.assignee_clock) BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
    INSERT INTO remote_pending_todos SELECT OLD.uuid, OLD.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = OLD.uuid AND repository_id = OLD.repository_id);
END;

-- A doogit of 4.0 kept the who of files of 4.1 it read only in those files: the next exchange
-- reads the remote's files whole once, so that what they say of who is merged here too.
DELETE FROM remote_files;
UPDATE remote SET head_commit = NULL, ref_etag = NULL;

-- doogit schema, version 9: what a todo says beyond its text (file format 3.1). Each field is a
-- register with its own stamp, on live todos and removed ones alike; tags are rows of their own,
-- by UUID (as commits are), indexed by tag for `todo list --tag`.
ALTER TABLE todos ADD COLUMN due            TEXT CHECK (due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE todos ADD COLUMN priority       TEXT CHECK (priority IS NULL OR priority IN ('H', 'M', 'L'));
ALTER TABLE todos ADD COLUMN note           TEXT;
ALTER TABLE todos ADD COLUMN due_clock      TEXT;
ALTER TABLE todos ADD COLUMN priority_clock TEXT;
ALTER TABLE todos ADD COLUMN tags_clock     TEXT;
ALTER TABLE todos ADD COLUMN note_clock     TEXT;
-- The linked issue's labels as last seen (names separated by U+001F; NULL: not known).
ALTER TABLE todos ADD COLUMN seen_labels    TEXT;
ALTER TABLE todo_tombstones ADD COLUMN due            TEXT;
ALTER TABLE todo_tombstones ADD COLUMN priority       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN note           TEXT;
ALTER TABLE todo_tombstones ADD COLUMN due_clock      TEXT;
ALTER TABLE todo_tombstones ADD COLUMN priority_clock TEXT;
ALTER TABLE todo_tombstones ADD COLUMN tags_clock     TEXT;
ALTER TABLE todo_tombstones ADD COLUMN note_clock     TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_labels    TEXT;

CREATE TABLE todo_tags (
    todo_uuid TEXT NOT NULL,
    tag       TEXT NOT NULL CHECK (length(tag) > 0),
    PRIMARY KEY (todo_uuid, tag)
) WITHOUT ROWID;
CREATE INDEX todo_tags_by_tag ON todo_tags (tag, todo_uuid);
CREATE INDEX todos_due ON todos (due) WHERE due IS NOT NULL;

-- A change of the new fields waits to be sent like any other (a change of tags always writes
-- their stamp).
DROP TRIGGER todo_changed;
CREATE TRIGGER todo_changed AFTER UPDATE OF repository_id, text, done, done_at, repository_clock, text_clock, done_clock,
    removed_clock, issue_number, issue_url, issue_clock, seen_number, seen_state, seen_title, seen_url, seen_updated_at,
    seen_at, seen_clock, seen_labels, due, priority, note, due_clock, priority_clock, tags_clock, note_clock ON todos
    WHEN (OLD.repository_id IS NOT NEW.repository_id OR OLD.text IS NOT NEW.text
        OR OLD.done IS NOT NEW.done OR OLD.done_at IS NOT NEW.done_at OR OLD.repository_clock IS NOT NEW.repository_clock
        OR OLD.text_clock IS NOT NEW.text_clock OR OLD.done_clock IS NOT NEW.done_clock OR OLD.removed_clock IS NOT NEW.removed_clock
        OR OLD.issue_number IS NOT NEW.issue_number OR OLD.issue_url IS NOT NEW.issue_url OR OLD.issue_clock IS NOT NEW.issue_clock
        OR OLD.seen_number IS NOT NEW.seen_number OR OLD.seen_state IS NOT NEW.seen_state OR OLD.seen_title IS NOT NEW.seen_title
        OR OLD.seen_url IS NOT NEW.seen_url OR OLD.seen_updated_at IS NOT NEW.seen_updated_at OR OLD.seen_at IS NOT NEW.seen_at
        OR OLD.seen_clock IS NOT NEW.seen_clock OR OLD.seen_labels IS NOT NEW.seen_labels OR OLD.due IS NOT NEW.due OR OLD.priority IS NOT NEW.priority
        OR OLD.note IS NOT NEW.note OR OLD.due_clock IS NOT NEW.due_clock OR OLD.priority_clock IS NOT NEW.priority_clock
        OR OLD.tags_clock IS NOT NEW.tags_clock OR OLD.note_clock IS NOT NEW.note_clock) BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
    INSERT INTO remote_pending_todos SELECT OLD.uuid, OLD.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = OLD.uuid AND repository_id = OLD.repository_id);
END;

-- doogit schema, version 11: a todo's tags as a set that merges tag by tag (file format 4).
--
-- Each tag has its own state and stamp: on, or off (removed, kept so that a removal meets an add
-- made elsewhere), with the stamp of its last change. Tags compare without case: `tag_key` is the
-- tag's name folded (by doogit; lower() here, for the tags kept so far, which are words), one row
-- per key. The tags kept so far are on, at the stamp of the whole set they were part of.
ALTER TABLE todo_tags ADD COLUMN tag_key TEXT;
ALTER TABLE todo_tags ADD COLUMN is_on INTEGER NOT NULL DEFAULT 1 CHECK (is_on IN (0, 1));
ALTER TABLE todo_tags ADD COLUMN clock TEXT;
-- Two spellings of one tag on a todo were two tags: one is kept.
DELETE FROM todo_tags WHERE EXISTS (
    SELECT 1 FROM todo_tags other
    WHERE other.todo_uuid = todo_tags.todo_uuid AND lower(other.tag) = lower(todo_tags.tag) AND other.tag < todo_tags.tag);
UPDATE todo_tags SET tag_key = lower(tag),
    clock = coalesce((SELECT tags_clock FROM todos WHERE uuid = todo_uuid),
                     (SELECT tags_clock FROM todo_tombstones WHERE uuid = todo_uuid));
CREATE UNIQUE INDEX todo_tags_keys ON todo_tags (todo_uuid, tag_key);
CREATE INDEX todo_tags_on ON todo_tags (tag_key, todo_uuid) WHERE is_on = 1;
DROP INDEX todo_tags_by_tag;

-- Tags added to or removed from a linked todo here, to add to or remove from its issue's labels
-- at the next sync, with pushing on: changes, never a whole set built from an old reading, so a
-- label someone else gave the issue meanwhile stays. Each goes once, from this machine.
CREATE TABLE label_changes (
    todo_uuid TEXT    NOT NULL,
    label     TEXT    NOT NULL,              -- as spelled
    adding    INTEGER NOT NULL CHECK (adding IN (0, 1)),
    PRIMARY KEY (todo_uuid, label)
) WITHOUT ROWID;

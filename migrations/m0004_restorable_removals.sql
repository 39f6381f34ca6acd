-- doogit schema, version 4.

-- A removed todo's tombstone keeps what the todo was (its local ID, text, state, place and times),
-- so `todo restore` can bring it back exactly, and a removal that meets a copy of the todo
-- elsewhere still has its values. Tombstones written before this version have NULLs here.
ALTER TABLE todo_tombstones ADD COLUMN todo_id    INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN text       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN done       INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN position   INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN created_at TEXT;
ALTER TABLE todo_tombstones ADD COLUMN updated_at TEXT;
ALTER TABLE todo_tombstones ADD COLUMN done_at    TEXT;
CREATE INDEX todo_tombstones_todo_id ON todo_tombstones (todo_id);

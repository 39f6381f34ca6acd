-- doogit schema, version 16: the list's order as an index, so that a screen of it is read from
-- where it starts, never by sorting a repository's todos. Within a repository: open todos
-- first, those with a due date first by date, then by priority (H, M, L, none), then by
-- position; done todos by position. The two keys are virtual (computed, not stored), so
-- nothing that writes a todo changes.
ALTER TABLE todos ADD COLUMN list_due TEXT
    GENERATED ALWAYS AS (CASE WHEN done = 0 AND due IS NOT NULL THEN due ELSE '~' END) VIRTUAL;
ALTER TABLE todos ADD COLUMN list_rank INTEGER
    GENERATED ALWAYS AS (CASE WHEN done = 0 THEN CASE priority WHEN 'H' THEN 0 WHEN 'M' THEN 1 WHEN 'L' THEN 2 ELSE 3 END ELSE 3 END) VIRTUAL;
CREATE INDEX todos_list_order ON todos (repository_id, done, list_due, list_rank, position, id);

-- doogit schema, version 17: todos by priority, so that `todo list --priority` and `next
-- --priority` read the todos of that priority, not every todo. Partial: most todos have none.
CREATE INDEX todos_priority ON todos (priority) WHERE priority IS NOT NULL;

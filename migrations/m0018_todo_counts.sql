-- doogit schema, version 18: how many todos each repository has, open and done, kept as they
-- change, so that the list's headers and the view's first screen read one row per repository
-- instead of counting its todos. Triggers keep the counts for every writer (a command, an
-- import, a merge, another program writing the file); a merge that writes with triggers off
-- counts the repositories it touched again itself (ReplicaStore.apply). A repository without a
-- row has no todos.
CREATE TABLE todo_counts (
    repository_id INTEGER PRIMARY KEY,
    open          INTEGER NOT NULL DEFAULT 0,
    done          INTEGER NOT NULL DEFAULT 0
);
INSERT INTO todo_counts (repository_id, open, done)
    SELECT repository_id, sum(done = 0), sum(done = 1) FROM todos GROUP BY repository_id;

-- One upsert per todo added: its conflict clause holds whatever the statement that fired the
-- trigger says (an INSERT OR IGNORE into todos is counted right). A row that INSERT OR REPLACE
-- replaces fires no delete trigger (recursive_triggers is off); doogit replaces no todo.
CREATE TRIGGER todo_counted AFTER INSERT ON todos BEGIN
    INSERT INTO todo_counts (repository_id, open, done) VALUES (NEW.repository_id, NEW.done = 0, NEW.done = 1)
        ON CONFLICT (repository_id) DO UPDATE SET open = open + excluded.open, done = done + excluded.done;
END;
CREATE TRIGGER todo_uncounted AFTER DELETE ON todos BEGIN
    UPDATE todo_counts SET open = open - (OLD.done = 0), done = done - (OLD.done = 1) WHERE repository_id = OLD.repository_id;
END;
CREATE TRIGGER todo_recounted AFTER UPDATE OF repository_id, done ON todos
    WHEN OLD.repository_id IS NOT NEW.repository_id OR OLD.done IS NOT NEW.done BEGIN
    UPDATE todo_counts SET open = open - (OLD.done = 0), done = done - (OLD.done = 1) WHERE repository_id = OLD.repository_id;
    INSERT INTO todo_counts (repository_id, open, done) VALUES (NEW.repository_id, NEW.done = 0, NEW.done = 1)
        ON CONFLICT (repository_id) DO UPDATE SET open = open + excluded.open, done = done + excluded.done;
END;

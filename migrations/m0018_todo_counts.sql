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

-- (The row is made apart from the addition, not by an upsert: a trigger's conflict rule gives
-- way to that of the statement that fired it.)
CREATE TRIGGER todo_counted AFTER INSERT ON todos BEGIN
    INSERT INTO todo_counts (repository_id) SELECT NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM todo_counts WHERE repository_id = NEW.repository_id);
    UPDATE todo_counts SET open = open + (NEW.done = 0), done = done + (NEW.done = 1) WHERE repository_id = NEW.repository_id;
END;
CREATE TRIGGER todo_uncounted AFTER DELETE ON todos BEGIN
    UPDATE todo_counts SET open = open - (OLD.done = 0), done = done - (OLD.done = 1) WHERE repository_id = OLD.repository_id;
END;
CREATE TRIGGER todo_recounted AFTER UPDATE OF repository_id, done ON todos
    WHEN OLD.repository_id IS NOT NEW.repository_id OR OLD.done IS NOT NEW.done BEGIN
    UPDATE todo_counts SET open = open - (OLD.done = 0), done = done - (OLD.done = 1) WHERE repository_id = OLD.repository_id;
    INSERT INTO todo_counts (repository_id) SELECT NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM todo_counts WHERE repository_id = NEW.repository_id);
    UPDATE todo_counts SET open = open + (NEW.done = 0), done = done + (NEW.done = 1) WHERE repository_id = NEW.repository_id;
END;

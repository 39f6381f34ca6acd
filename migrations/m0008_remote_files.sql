-- doogit schema, version 8: the remote as files (format 3), so that an exchange reads and writes
-- only what changed, and removals leave it once every machine has merged them.

-- The remote's folders and files as this machine last read or wrote them, by git's names for
-- them, so that a read asks only for what changed since. A file doogit reads keeps its text, and
-- what it holds of removals waiting to leave: their first and last generation, and when the
-- oldest was made.
CREATE TABLE remote_files (
    path           TEXT    PRIMARY KEY,           -- '' is the root folder
    parent         TEXT,                          -- the folder it is in (NULL: the root)
    sha            TEXT    NOT NULL,
    is_folder      INTEGER NOT NULL CHECK (is_folder IN (0, 1)),
    content        TEXT,
    first_since    INTEGER,
    last_since     INTEGER,
    oldest_removal TEXT
) WITHOUT ROWID;
CREATE INDEX remote_files_parent ON remote_files (parent);

-- The branch's commit as last read or written (and the ETag of that read, for a free one), whether
-- this machine sent this remote its list before, and what it asked of the remote's own settings
-- that its next exchange writes: machines to forget, a horizon.
ALTER TABLE remote ADD COLUMN head_commit   TEXT;
ALTER TABLE remote ADD COLUMN ref_etag      TEXT;
ALTER TABLE remote ADD COLUMN exchanged     INTEGER NOT NULL DEFAULT 0 CHECK (exchanged IN (0, 1));
ALTER TABLE remote ADD COLUMN forget        TEXT;
ALTER TABLE remote ADD COLUMN horizon_days  INTEGER CHECK (horizon_days > 0);
ALTER TABLE remote ADD COLUMN horizon_clock TEXT;
-- The single file's copy is read no more (`blob_sha`, `etag`, `content` stay empty).
UPDATE remote SET content = NULL, blob_sha = NULL, etag = NULL;

-- A todo removed on another machine gets an ID here too, so that it can be restored here.
WITH numbered AS (
    SELECT uuid, row_number() OVER (ORDER BY removed_at, uuid) AS n
    FROM todo_tombstones WHERE todo_id IS NULL AND text IS NOT NULL
)
UPDATE todo_tombstones
SET todo_id = (SELECT n FROM numbered WHERE numbered.uuid = todo_tombstones.uuid)
              + max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'todos'), 0),
                    coalesce((SELECT max(todo_id) FROM todo_tombstones), 0),
                    coalesce((SELECT max(id) FROM todos), 0))
WHERE uuid IN (SELECT uuid FROM numbered);
UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT max(todo_id) FROM todo_tombstones), 0)) WHERE name = 'todos';

-- What changed here since it was last sent: each todo with every repository it was in meanwhile
-- (a move rewrites the file it left too), and repositories. Triggers note every change of what
-- machines exchange, whatever made it; an exchange turns its connection's triggers off while it
-- writes what it merged.
-- (A trigger inside an upsert cannot rely on OR IGNORE: the outer statement's conflict rule wins.)
CREATE TABLE remote_pending_todos (
    uuid          TEXT    NOT NULL,
    repository_id INTEGER NOT NULL,
    PRIMARY KEY (uuid, repository_id)
) WITHOUT ROWID;
CREATE TABLE remote_pending_repositories (id INTEGER PRIMARY KEY);

CREATE TRIGGER todo_added AFTER INSERT ON todos BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
END;
CREATE TRIGGER todo_changed AFTER UPDATE OF repository_id, text, done, done_at, repository_clock, text_clock, done_clock,
    removed_clock, issue_number, issue_url, issue_clock, seen_number, seen_state, seen_title, seen_url, seen_updated_at,
    seen_at, seen_clock ON todos
    WHEN (OLD.repository_id IS NOT NEW.repository_id OR OLD.text IS NOT NEW.text
        OR OLD.done IS NOT NEW.done OR OLD.done_at IS NOT NEW.done_at OR OLD.repository_clock IS NOT NEW.repository_clock
        OR OLD.text_clock IS NOT NEW.text_clock OR OLD.done_clock IS NOT NEW.done_clock OR OLD.removed_clock IS NOT NEW.removed_clock
        OR OLD.issue_number IS NOT NEW.issue_number OR OLD.issue_url IS NOT NEW.issue_url OR OLD.issue_clock IS NOT NEW.issue_clock
        OR OLD.seen_number IS NOT NEW.seen_number OR OLD.seen_state IS NOT NEW.seen_state OR OLD.seen_title IS NOT NEW.seen_title
        OR OLD.seen_url IS NOT NEW.seen_url OR OLD.seen_updated_at IS NOT NEW.seen_updated_at OR OLD.seen_at IS NOT NEW.seen_at
        OR OLD.seen_clock IS NOT NEW.seen_clock) BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
    INSERT INTO remote_pending_todos SELECT OLD.uuid, OLD.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = OLD.uuid AND repository_id = OLD.repository_id);
END;
CREATE TRIGGER todo_removed AFTER INSERT ON todo_tombstones BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
END;
CREATE TRIGGER removed_todo_changed AFTER UPDATE ON todo_tombstones BEGIN
    INSERT INTO remote_pending_todos SELECT NEW.uuid, NEW.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = NEW.uuid AND repository_id = NEW.repository_id);
    INSERT INTO remote_pending_todos SELECT OLD.uuid, OLD.repository_id
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos WHERE uuid = OLD.uuid AND repository_id = OLD.repository_id);
END;
CREATE TRIGGER todo_commit_added AFTER INSERT ON todo_commits BEGIN
    INSERT INTO remote_pending_todos
        SELECT uuid, repository_id FROM (SELECT uuid, repository_id FROM todos WHERE uuid = NEW.todo_uuid
                                         UNION SELECT uuid, repository_id FROM todo_tombstones WHERE uuid = NEW.todo_uuid) AS found
        WHERE NOT EXISTS (SELECT 1 FROM remote_pending_todos p WHERE p.uuid = found.uuid AND p.repository_id = found.repository_id);
END;
CREATE TRIGGER repository_added AFTER INSERT ON repositories BEGIN
    INSERT INTO remote_pending_repositories SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM remote_pending_repositories WHERE id = NEW.id);
END;
CREATE TRIGGER repository_changed AFTER UPDATE OF full_name, html_url, name_clock, tracked_clock, push_issues,
    import_issues, scan_commits, settings_clock ON repositories
    WHEN (OLD.full_name IS NOT NEW.full_name OR OLD.html_url IS NOT NEW.html_url
        OR OLD.name_clock IS NOT NEW.name_clock OR OLD.tracked_clock IS NOT NEW.tracked_clock
        OR OLD.push_issues IS NOT NEW.push_issues OR OLD.import_issues IS NOT NEW.import_issues
        OR OLD.scan_commits IS NOT NEW.scan_commits OR OLD.settings_clock IS NOT NEW.settings_clock) BEGIN
    INSERT INTO remote_pending_repositories SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM remote_pending_repositories WHERE id = NEW.id);
END;
CREATE TRIGGER repository_untracked AFTER INSERT ON untracked_repositories BEGIN
    INSERT INTO remote_pending_repositories SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM remote_pending_repositories WHERE id = NEW.id);
END;
CREATE TRIGGER untracked_repository_changed AFTER UPDATE ON untracked_repositories BEGIN
    INSERT INTO remote_pending_repositories SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM remote_pending_repositories WHERE id = NEW.id);
END;

-- Everything here goes out once in the new form, merged with what the remote holds.
INSERT OR IGNORE INTO remote_pending_todos SELECT uuid, repository_id FROM todos;
INSERT OR IGNORE INTO remote_pending_todos SELECT uuid, repository_id FROM todo_tombstones;
INSERT OR IGNORE INTO remote_pending_repositories SELECT id FROM repositories UNION SELECT id FROM untracked_repositories;

-- doogit schema, version 3.

-- Names a tracked repository had before (GitHub keeps redirecting them, so old checkouts and
-- scripts keep using them), and names a user asked for that GitHub redirected. A repository stays
-- reachable by every one of them; a repository whose current name is the same wins over this.
CREATE TABLE repository_names (
    full_name     TEXT    NOT NULL PRIMARY KEY COLLATE NOCASE,
    repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    seen_at       TEXT    NOT NULL
) WITHOUT ROWID;
CREATE INDEX repository_names_repository ON repository_names (repository_id);

-- Marks the file as doogit's, so that no other program's SQLite file is mistaken for one.
PRAGMA application_id = 1685024615;  -- 'doog'

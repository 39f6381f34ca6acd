-- doogit schema, version 6: the same todos on several machines, exchanged through a file on GitHub.
--
-- Every field that machines exchange has a stamp of a hybrid logical clock, in its text form
-- `2026-11-29T21:23:15.123Z/0003/3f2a9c1b7d4e` (wall time, counter, machine), which sorts as
-- text as the stamps compare. A merge keeps, field by field, the value with the later stamp.

-- This machine: its id in stamps, its clock (the latest stamp it made or saw), and how many
-- local changes it has made (sync compares that with the count it last exchanged).
CREATE TABLE replica (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    machine_id TEXT    NOT NULL CHECK (length(machine_id) = 12),
    clock      TEXT    NOT NULL,
    changes    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO replica (id, machine_id, clock)
VALUES (1, lower(hex(randomblob(6))), '1970-01-01T00:00:00.000Z/0000/000000000000');

-- Stamps of a todo's fields. `removed_clock` is the stamp of its last restore (NULL: never removed).
ALTER TABLE todos ADD COLUMN repository_clock TEXT;
ALTER TABLE todos ADD COLUMN text_clock       TEXT;
ALTER TABLE todos ADD COLUMN done_clock       TEXT;
ALTER TABLE todos ADD COLUMN removed_clock    TEXT;
-- A repository's todos are listed in the order of their repository stamps (when each arrived
-- there), the same on every machine: existing todos get stamps in their present order.
UPDATE todos SET
    repository_clock = (SELECT max(o.created_at) FROM todos o WHERE o.repository_id = todos.repository_id
                                                               AND o.position <= todos.position)
                       || '/' || printf('%04x', min(position, 65535)) || '/' || (SELECT machine_id FROM replica),
    text_clock = updated_at || '/0000/' || (SELECT machine_id FROM replica),
    done_clock = updated_at || '/0000/' || (SELECT machine_id FROM replica);

-- A removed todo keeps its stamps too; `removed_clock` is the removal's.
ALTER TABLE todo_tombstones ADD COLUMN repository_clock TEXT;
ALTER TABLE todo_tombstones ADD COLUMN text_clock       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN done_clock       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN removed_clock    TEXT;
UPDATE todo_tombstones SET
    repository_clock = coalesce(created_at, removed_at) || '/0000/' || (SELECT machine_id FROM replica),
    text_clock = coalesce(updated_at, removed_at) || '/0000/' || (SELECT machine_id FROM replica),
    done_clock = coalesce(updated_at, removed_at) || '/0000/' || (SELECT machine_id FROM replica),
    removed_clock = removed_at || '/0000/' || (SELECT machine_id FROM replica);

-- Stamps of a repository's name (as last seen on GitHub) and of its tracking.
ALTER TABLE repositories ADD COLUMN name_clock    TEXT;
ALTER TABLE repositories ADD COLUMN tracked_clock TEXT;
UPDATE repositories SET
    name_clock = synced_at || '/0000/' || (SELECT machine_id FROM replica),
    tracked_clock = added_at || '/0000/' || (SELECT machine_id FROM replica);

-- Stamps of a todo's link to a GitHub issue (its number, state and address, as one field) and
-- of a repository's settings (push_issues, import_issues and scan_commits, as one field). NULL:
-- never set on any machine, so a repository nobody configured takes the settings made elsewhere.
ALTER TABLE todos ADD COLUMN issue_clock TEXT;
ALTER TABLE todo_tombstones ADD COLUMN issue_clock TEXT;
ALTER TABLE repositories ADD COLUMN settings_clock TEXT;
UPDATE todos SET issue_clock = updated_at || '/0000/' || (SELECT machine_id FROM replica) WHERE issue_number IS NOT NULL;
UPDATE todo_tombstones SET issue_clock = removed_at || '/0000/' || (SELECT machine_id FROM replica)
WHERE issue_number IS NOT NULL;
UPDATE repositories SET settings_clock = synced_at || '/0000/' || (SELECT machine_id FROM replica)
WHERE push_issues <> 0 OR import_issues <> 'off' OR scan_commits <> 1;

-- Repositories that some machine stopped tracking (`repo remove`), remembered so the removal
-- reaches the other machines. A repository also listed in `repositories` stays on the list
-- only because a todo not removed is still in it.
CREATE TABLE untracked_repositories (
    id            INTEGER PRIMARY KEY,        -- GitHub's repository id
    full_name     TEXT NOT NULL,
    html_url      TEXT NOT NULL,
    name_clock    TEXT NOT NULL,
    tracked_clock TEXT NOT NULL,
    -- Its settings, which travel with it as long as any machine lists it.
    push_issues    INTEGER NOT NULL DEFAULT 0 CHECK (push_issues IN (0, 1)),
    import_issues  TEXT    NOT NULL DEFAULT 'off' CHECK (import_issues IN ('off', 'assigned', 'all')),
    scan_commits   INTEGER NOT NULL DEFAULT 1 CHECK (scan_commits IN (0, 1)),
    settings_clock TEXT
);

-- Where the todos are exchanged (`remote init`): the file in a private repository, as last
-- read or written, so that an unchanged file costs one conditional request (a 304) and local
-- changes can be merged with it without reading it again.
CREATE TABLE remote (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    repository_id     INTEGER NOT NULL,       -- GitHub's id of the repository
    full_name         TEXT    NOT NULL,
    branch            TEXT    NOT NULL,
    path              TEXT    NOT NULL,
    blob_sha          TEXT,                   -- of the file as last read or written
    etag              TEXT,                   -- of the last read
    content           TEXT,                   -- the file as last read or written
    exchanged_changes INTEGER NOT NULL DEFAULT 0,  -- replica.changes that the last exchange sent
    exchanged_at      TEXT,                   -- the last successful exchange
    added_at          TEXT    NOT NULL
);

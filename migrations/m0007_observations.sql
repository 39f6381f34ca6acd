-- doogit schema, version 7: what the user did and what a machine saw on GitHub, kept apart, so
-- that an observation (an issue's state or title, a commit's trailer) is applied once on every
-- machine and never undoes a change the user made after it.

-- The linked issue as last seen on GitHub (by any machine), stamped with the link it was seen
-- under (`seen_clock`): its number, state, title, address and `updated_at`, and when it was seen
-- (`seen_at`, a stamp of the machine that saw it). The link itself
-- (`issue_number`, `issue_url`, `issue_clock`) is only ever changed by the user (link, unlink,
-- promote, an import), never by what a sync reads.
-- Every link has its stamp (a row an older doogit linked without one: as linked when it last changed).
UPDATE todos SET issue_clock = updated_at || '/0000/' || (SELECT machine_id FROM replica)
WHERE issue_number IS NOT NULL AND issue_clock IS NULL;
UPDATE todo_tombstones SET issue_clock = coalesce(updated_at, removed_at) || '/0000/' || (SELECT machine_id FROM replica)
WHERE issue_number IS NOT NULL AND issue_clock IS NULL;

ALTER TABLE todos ADD COLUMN seen_number     INTEGER;
ALTER TABLE todos ADD COLUMN seen_state      TEXT CHECK (seen_state IN ('open', 'closed'));
ALTER TABLE todos ADD COLUMN seen_title      TEXT;
ALTER TABLE todos ADD COLUMN seen_url        TEXT;
ALTER TABLE todos ADD COLUMN seen_updated_at TEXT;
ALTER TABLE todos ADD COLUMN seen_at         TEXT;
ALTER TABLE todos ADD COLUMN seen_clock      TEXT;
UPDATE todos SET seen_number = issue_number, seen_state = issue_state, seen_title = issue_title, seen_url = issue_url,
                 seen_updated_at = issue_synced_at, seen_clock = issue_clock
WHERE issue_number IS NOT NULL AND issue_state IS NOT NULL AND issue_clock IS NOT NULL;

ALTER TABLE todo_tombstones ADD COLUMN seen_number     INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN seen_state      TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_title      TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_url        TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_updated_at TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_at         TEXT;
ALTER TABLE todo_tombstones ADD COLUMN seen_clock      TEXT;
UPDATE todo_tombstones SET seen_number = issue_number, seen_state = issue_state, seen_title = issue_title,
                           seen_url = issue_url, seen_updated_at = issue_synced_at, seen_clock = issue_clock
WHERE issue_number IS NOT NULL AND issue_state IN ('open', 'closed') AND issue_clock IS NOT NULL;

-- What each machine's sync kept of an issue exchange before (the issue as last seen here, the
-- todo as last sent: issue_state, issue_title, issue_synced_text, issue_synced_done,
-- issue_synced_at): the observation above replaces it, on every machine alike. Those columns stay,
-- never read nor written again (SQLite before 3.35 cannot drop a column).

-- The commits whose `Doogit-Done:` trailer named a todo (live or removed, by UUID): each is
-- applied once, and the record travels with the todo, so that no other machine, no rescan and
-- no force-push that keeps the commit finishes the todo again.
CREATE TABLE todo_commits (
    todo_uuid TEXT NOT NULL,
    sha       TEXT NOT NULL,
    PRIMARY KEY (todo_uuid, sha)
) WITHOUT ROWID;

-- The remote repository as last checked (its ETag): before each write it is checked, for free
-- when unchanged, to be still private.
ALTER TABLE remote ADD COLUMN repository_etag TEXT;

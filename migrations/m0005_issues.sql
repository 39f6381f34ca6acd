-- doogit schema, version 5: todos linked to GitHub issues, per-repository settings for issues
-- and commits, and what sync needs to read them cheaply.

-- A todo's issue, in the todo's repository. `issue_title` and `issue_state` are the issue as
-- last seen (the baseline of the issue's side); `issue_synced_text` and `issue_synced_done` are
-- the todo as it was at that exchange (the baseline of the todo's side). A side has changed
-- when it differs from its baseline; the two texts may differ at rest (`todo link` changes
-- neither). `issue_synced_at` is the issue's updated_at at the last exchange.
ALTER TABLE todos ADD COLUMN issue_number      INTEGER CHECK (issue_number > 0);
ALTER TABLE todos ADD COLUMN issue_url         TEXT;
ALTER TABLE todos ADD COLUMN issue_state       TEXT CHECK (issue_state IN ('open', 'closed'));
ALTER TABLE todos ADD COLUMN issue_title       TEXT;
ALTER TABLE todos ADD COLUMN issue_synced_text TEXT;
ALTER TABLE todos ADD COLUMN issue_synced_done INTEGER CHECK (issue_synced_done IN (0, 1));
ALTER TABLE todos ADD COLUMN issue_synced_at   TEXT;
-- An issue is linked to at most one todo.
CREATE UNIQUE INDEX todos_issue ON todos (repository_id, issue_number) WHERE issue_number IS NOT NULL;

-- A removed todo's tombstone keeps its link too, so `todo restore` brings it back linked (unless
-- the issue was linked to another todo meanwhile).
ALTER TABLE todo_tombstones ADD COLUMN issue_number      INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN issue_url         TEXT;
ALTER TABLE todo_tombstones ADD COLUMN issue_state       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN issue_title       TEXT;
ALTER TABLE todo_tombstones ADD COLUMN issue_synced_text TEXT;
ALTER TABLE todo_tombstones ADD COLUMN issue_synced_done INTEGER;
ALTER TABLE todo_tombstones ADD COLUMN issue_synced_at   TEXT;

-- Settings: push todo changes to linked issues (off by default: nothing is written to GitHub by
-- surprise), turn open issues into todos, mark todos done from commit trailers.
ALTER TABLE repositories ADD COLUMN push_issues   INTEGER NOT NULL DEFAULT 0 CHECK (push_issues IN (0, 1));
ALTER TABLE repositories ADD COLUMN import_issues TEXT    NOT NULL DEFAULT 'off'
    CHECK (import_issues IN ('off', 'assigned', 'all'));
ALTER TABLE repositories ADD COLUMN scan_commits  INTEGER NOT NULL DEFAULT 1 CHECK (scan_commits IN (0, 1));
-- The issue listing as last read: its ETag and the `since` it was asked with (NULL: every issue).
ALTER TABLE repositories ADD COLUMN issues_etag   TEXT;
ALTER TABLE repositories ADD COLUMN issues_since  TEXT;
-- The default branch: its name (from the repository), and as last read: its ETag, its head
-- commit, and the repository's pushed_at then (while that stays, nothing was pushed: no read).
ALTER TABLE repositories ADD COLUMN default_branch    TEXT;
ALTER TABLE repositories ADD COLUMN branch_etag       TEXT;
ALTER TABLE repositories ADD COLUMN last_commit_sha   TEXT;
ALTER TABLE repositories ADD COLUMN commits_pushed_at TEXT;

-- Every issue that was ever linked to a todo here (imported, promoted or linked): import never
-- makes a todo of one of them again, even after that todo was removed or finished. Kept when
-- the repository stops being tracked, so tracking it again imports nothing twice.
CREATE TABLE known_issues (
    repository_id INTEGER NOT NULL,
    issue_number  INTEGER NOT NULL,
    seen_at       TEXT    NOT NULL,
    PRIMARY KEY (repository_id, issue_number)
) WITHOUT ROWID;

-- Issues being created for a todo (`todo promote`, `todo add --issue`). A row is written before
-- the POST and removed once the issue is linked. One that stays (the POST's answer was lost, or
-- doogit was stopped meanwhile) means the issue may exist: before anything is posted again,
-- the repository's recent issues are searched for `marker`, which the body carries.
CREATE TABLE pending_issues (
    todo_uuid     TEXT    PRIMARY KEY,
    repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    title         TEXT    NOT NULL,
    body          TEXT    NOT NULL,
    labels        TEXT    NOT NULL,   -- JSON array of label names
    marker        TEXT    NOT NULL,
    state         TEXT    NOT NULL CHECK (state IN ('sending', 'unknown')),
    created_at    TEXT    NOT NULL
) WITHOUT ROWID;

-- doogit schema, version 12: reads that take more than one run, and listings of other owners.

-- A first read of thousands of repositories, or of a remote's thousands of files, can need
-- more than the hour's rate limit, or meet a secondary one. What a run that stopped had read
-- is noted here, each item of a read with what the reader keeps of it (a file's text, or
-- nothing when the item is kept elsewhere), so that the next run reads what is still missing
-- first instead of starting over. A read that completes forgets its rows.
CREATE TABLE read_progress (
    read    TEXT NOT NULL,
    item    TEXT NOT NULL,
    content TEXT,
    PRIMARY KEY (read, item)
) WITHOUT ROWID;

-- The cached pages now belong to several listings: the signed-in user's ('user') and other
-- owners' ('users/' and the owner's login in lowercase), each replaced on its own.
ALTER TABLE listing_pages ADD COLUMN listing TEXT NOT NULL DEFAULT 'user';

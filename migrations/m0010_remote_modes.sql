-- doogit schema, version 10: the remote's entries with their modes, and its visibility as last
-- checked.
--
-- Git names a folder from its entries' modes (an executable is 100755, a symlink 120000, a
-- submodule 160000), so a folder named as if every file were 100644 is another folder. The
-- folders known so far were named that way, and the root's name may be its commit's: they are
-- forgotten, and the next sync lists the remote's folders again (files whose names did not change
-- are not read again).
ALTER TABLE remote_files ADD COLUMN mode TEXT;
DELETE FROM remote_files WHERE is_folder = 1;
UPDATE remote SET ref_etag = NULL;

-- Whether the last check of the remote repository found it public: a 304 to the next check
-- (the repository unchanged) means the same, so every sync says so while it stays public.
ALTER TABLE remote ADD COLUMN repository_public INTEGER NOT NULL DEFAULT 0 CHECK (repository_public IN (0, 1));

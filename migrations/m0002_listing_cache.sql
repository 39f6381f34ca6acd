-- Pages of the signed-in user's repository listing (GET /user/repos) as last read by sync, with
-- their ETags: a page GitHub answers 304 for (at no rate-limit cost) is read from here.
-- `repositories` holds doogit's own compact JSON of the page's repositories, not GitHub's body.
CREATE TABLE listing_pages (
    url          TEXT PRIMARY KEY,
    etag         TEXT NOT NULL,
    next_url     TEXT,
    repositories TEXT NOT NULL,
    fetched_at   TEXT NOT NULL
) WITHOUT ROWID;

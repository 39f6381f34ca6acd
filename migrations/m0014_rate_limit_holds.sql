-- doogit schema, version 14: a rate limit GitHub asked to wait out is kept across commands.

-- When GitHub answers that a rate limit is met (the hour's requests used up, or a secondary
-- limit), it names a time before which nothing more may be sent: continuing while limited can
-- get a client blocked. The next command to the same API origin sends nothing before then.
CREATE TABLE rate_limit_holds (
    origin TEXT PRIMARY KEY,                                  -- the API's scheme, host and port
    until  TEXT NOT NULL,                                     -- RFC 3339, UTC
    kind   TEXT NOT NULL CHECK (kind IN ('primary', 'secondary'))
) WITHOUT ROWID;

-- Console sessions are signed, not stored (ADR 0064); signing out records the
-- session here until it would have expired, so a copy of its cookie is refused too. Rows
-- whose expiry has passed are deleted at the next sign-out.
CREATE TABLE ended_console_sessions (
  token_hash TEXT    PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX ended_console_sessions_by_expiry ON ended_console_sessions (expires_at);

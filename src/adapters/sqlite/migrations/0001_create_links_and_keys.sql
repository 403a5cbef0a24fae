-- Links, the idempotency records claimed with them, and API keys (SPEC §4).
-- Times are epoch milliseconds. `code` is unique across every state, tombstones included,
-- so a code is never handed to two links.
CREATE TABLE links (
  id          TEXT    PRIMARY KEY,
  code        TEXT    NOT NULL UNIQUE,
  owner       TEXT    NOT NULL,
  destination TEXT    NOT NULL,
  status_code INTEGER NOT NULL CHECK (status_code IN (301, 302, 307, 308)),
  state       TEXT    NOT NULL CHECK (state IN ('active', 'disabled', 'expired', 'deleted')),
  custom      INTEGER NOT NULL CHECK (custom IN (0, 1)),
  title       TEXT,
  tags        TEXT    NOT NULL DEFAULT '[]',
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  expires_at  INTEGER,
  deleted_at  INTEGER,
  version     INTEGER NOT NULL
) STRICT;

CREATE INDEX links_owner_id ON links (owner, id);

CREATE TABLE idempotency_records (
  owner        TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  request_hash TEXT    NOT NULL,
  link_id      TEXT    NOT NULL,
  response     TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (owner, key)
) STRICT;

CREATE TABLE api_keys (
  id         TEXT    PRIMARY KEY,
  owner      TEXT    NOT NULL,
  admin      INTEGER NOT NULL CHECK (admin IN (0, 1)),
  key_hash   TEXT    NOT NULL UNIQUE,
  prefix     TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;

-- hop's schema on PostgreSQL (SPEC §4): the tables of SQLite's hop.db and clicks.db in one
-- database, as instances share it. Times are epoch milliseconds (bigint). Codes and ids
-- compare byte by byte (COLLATE "C"): codes are case-sensitive, ULIDs sort by time, and
-- neither needs a locale's rules. Plain SQL: no extensions, no triggers, so it also runs
-- on Postgres-compatible distributed databases (hash-partitionable by code).

CREATE TABLE links (
  id          text COLLATE "C" PRIMARY KEY,
  code        text COLLATE "C" NOT NULL,
  owner       text     NOT NULL,
  destination text     NOT NULL,
  status_code smallint NOT NULL CHECK (status_code IN (301, 302, 307, 308)),
  state       text     NOT NULL CHECK (state IN ('active', 'disabled', 'expired', 'deleted')),
  custom      boolean  NOT NULL,
  title       text,
  tags        jsonb    NOT NULL DEFAULT '[]',
  created_at  bigint   NOT NULL,
  updated_at  bigint   NOT NULL,
  expires_at  bigint,
  deleted_at  bigint,
  version     integer  NOT NULL,
  -- The inserting transaction: scanCodes reads codes in the order their transactions
  -- began, and knows from the snapshot's xmin which of them can no longer appear.
  created_xid xid8     NOT NULL DEFAULT pg_current_xact_id()
);

-- The conditional insert's arbiter (ON CONFLICT (code)) and the redirect's read. Not a
-- covering index as on SQLite: destinations may be longer than a B-tree entry may be, and
-- a table updated all day is rarely all-visible, so an index-only scan would read the
-- table anyway.
CREATE UNIQUE INDEX links_code ON links (code);
CREATE INDEX links_owner_id ON links (owner, id);
CREATE INDEX links_created_xid ON links (created_xid, id);

-- The sweeper's partial indexes (SQLite's migration 0005).
CREATE INDEX links_due_expiry ON links (expires_at)
  WHERE state = 'active' AND expires_at IS NOT NULL;
CREATE INDEX links_reclaimable ON links ((coalesce(deleted_at, expires_at)))
  WHERE NOT custom AND state IN ('expired', 'deleted');

CREATE TABLE idempotency_records (
  owner        text   NOT NULL,
  key          text   NOT NULL,
  request_hash text   NOT NULL,
  link_id      text   NOT NULL,
  response     text   NOT NULL,
  created_at   bigint NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_records_created_at ON idempotency_records (created_at);

CREATE TABLE api_keys (
  id         text COLLATE "C" PRIMARY KEY,
  owner      text    NOT NULL,
  admin      boolean NOT NULL,
  key_hash   text    NOT NULL UNIQUE,
  prefix     text    NOT NULL,
  created_at bigint  NOT NULL,
  revoked_at bigint
);

-- Named counters leased in blocks: the permutation counter and pool offsets.
CREATE TABLE sequences (
  name text   PRIMARY KEY,
  next bigint NOT NULL CHECK (next >= 0)
);

-- Click aggregates (SPEC §4, §6), folded by `hop worker` (or the instance itself without
-- NATS). Same shape as clicks.db.
CREATE TABLE click_hourly (
  link_id       text COLLATE "C" NOT NULL,
  hour          bigint NOT NULL,
  country       text   NOT NULL,
  device_class  text   NOT NULL,
  referrer_host text   NOT NULL,
  clicks        bigint NOT NULL,
  PRIMARY KEY (link_id, hour, country, device_class, referrer_host)
);

CREATE TABLE click_totals (
  link_id text COLLATE "C" PRIMARY KEY,
  clicks  bigint NOT NULL
);

-- Event ids already folded, per emitting instance, as intervals of sequence numbers.
CREATE TABLE click_seen (
  instance   text   PRIMARY KEY,
  intervals  jsonb  NOT NULL,
  updated_at bigint NOT NULL
);

CREATE TABLE click_freshness (
  id        integer PRIMARY KEY CHECK (id = 1),
  newest_at bigint  NOT NULL
);

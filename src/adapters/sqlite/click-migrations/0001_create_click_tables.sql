-- Click analytics (SPEC §4, §6), in their own file beside hop.db (clicks.db): the
-- aggregator's transactions, which may touch thousands of rows, then never hold the lock
-- that creates and edits of links need.

-- The embedded sink: each row is one flushed batch, summed per bucket with the run of event
-- ids it covers (JSON, `encodeTally`), until the aggregator has folded it.
CREATE TABLE click_queue (
  id         INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  tally      TEXT    NOT NULL
) STRICT;

-- The aggregates: clicks per link, hour (epoch ms of its start) and bounded dimensions.
CREATE TABLE click_hourly (
  link_id       TEXT    NOT NULL,
  hour          INTEGER NOT NULL,
  country       TEXT    NOT NULL,
  device_class  TEXT    NOT NULL,
  referrer_host TEXT    NOT NULL,
  clicks        INTEGER NOT NULL,
  PRIMARY KEY (link_id, hour, country, device_class, referrer_host)
) STRICT, WITHOUT ROWID;

-- Each link's all-time clicks, kept with the buckets, so listing links needs no sums.
CREATE TABLE click_totals (
  link_id TEXT    PRIMARY KEY,
  clicks  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Event ids already folded, per instance (process start) as intervals of sequence
-- numbers (JSON): de-duplication without a row per event.
CREATE TABLE click_seen (
  instance   TEXT    PRIMARY KEY,
  intervals  TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The newest event folded in (the analytics' `freshness`).
CREATE TABLE click_freshness (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  newest_at INTEGER NOT NULL
) STRICT;

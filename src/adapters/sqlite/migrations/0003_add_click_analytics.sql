-- Click analytics (SPEC §4, §6).
--
-- The redirect's covering index now carries the link id too: a counted click names its
-- link. Rebuilding it holds the write lock for as long as building 0002 did (22 s at ten
-- million links on the machine of BENCHMARKS.md).
DROP INDEX links_redirect;
CREATE INDEX links_redirect ON links (code, state, status_code, expires_at, version, id, destination);

-- The embedded sink: each row is one flushed batch of events, column-encoded JSON, until
-- the aggregator has folded it. `oldest_at` is the batch's oldest event (aggregation lag).
CREATE TABLE click_queue (
  id         INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  oldest_at  INTEGER NOT NULL,
  events     TEXT    NOT NULL
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

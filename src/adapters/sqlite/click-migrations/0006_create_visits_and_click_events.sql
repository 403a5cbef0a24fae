-- Issue 23 (ADR 0125): the visit log and the per-second click event log, written by the
-- fold in the same transaction as the counters, so both are exactly as complete as they.
-- A visit is one counted click: never an address, never a user agent. `at` is epoch ms
-- (the start of the click's second). Unknown values are NULL.
CREATE TABLE visits (
  id            INTEGER PRIMARY KEY,
  link_id       TEXT    NOT NULL,
  at            INTEGER NOT NULL,
  country       TEXT,
  city          TEXT,
  device        TEXT    NOT NULL,
  os            TEXT    NOT NULL,
  browser       TEXT    NOT NULL,
  language      TEXT,
  referrer_host TEXT,
  bot           INTEGER NOT NULL CHECK (bot IN (0, 1))
) STRICT;
-- A link's visits newest first, paged by (at, id).
CREATE INDEX visits_link_at ON visits (link_id, at DESC, id DESC);
-- Retention deletes the oldest first, in bounded batches.
CREATE INDEX visits_at ON visits (at);

-- `link.clicked` of webhooks and the event stream: one row per link and second a fold
-- counted. AUTOINCREMENT: a seq is never reused, even after the newest rows are forgotten.
CREATE TABLE click_events (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  link_id     TEXT    NOT NULL,
  second      INTEGER NOT NULL,
  clicks      INTEGER NOT NULL,
  bot_clicks  INTEGER NOT NULL,
  dimensions  TEXT    NOT NULL,
  recorded_at INTEGER NOT NULL
) STRICT;
CREATE INDEX click_events_recorded_at ON click_events (recorded_at);

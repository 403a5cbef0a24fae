-- Issue 23 (ADR 0125): the visit log and the per-second click event log, written by the
-- fold in the same transaction as the counters, so both are exactly as complete as they.
-- A visit is one counted click: never an address, never a user agent. `at` is epoch ms
-- (the start of the click's second). Unknown values are NULL.
--
-- Partitioned by day on `at` (UTC days, [day, day + 86400000)), so retention drops whole
-- partitions. The sweeper creates each day's partition a few days ahead; the DEFAULT
-- partition takes whatever has none yet, so a fold never fails for lack of one.
CREATE TABLE visits (
  id            bigint GENERATED ALWAYS AS IDENTITY,
  link_id       text COLLATE "C" NOT NULL,
  at            bigint NOT NULL,
  country       text,
  city          text,
  device        text   NOT NULL,
  os            text   NOT NULL,
  browser       text   NOT NULL,
  language      text,
  referrer_host text,
  bot           boolean NOT NULL
) PARTITION BY RANGE (at);
CREATE TABLE visits_default PARTITION OF visits DEFAULT;
-- A link's visits newest first, paged by (at, id); made on every partition.
CREATE INDEX visits_link_at ON visits (link_id, at DESC, id DESC);

-- `link.clicked` of webhooks and the event stream: one row per link and second a fold
-- counted. Folds take turns under the fold lock, so seqs commit in order.
CREATE TABLE click_events (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Folds on several instances commit in any order: readers go by (xid, seq) below the
  -- oldest transaction still running, as for link events (ADR 0127).
  xid         xid8   NOT NULL DEFAULT pg_current_xact_id(),
  link_id     text COLLATE "C" NOT NULL,
  second      bigint NOT NULL,
  clicks      bigint NOT NULL,
  bot_clicks  bigint NOT NULL,
  dimensions  jsonb  NOT NULL,
  recorded_at bigint NOT NULL
);
CREATE INDEX click_events_recorded_at ON click_events (recorded_at);
CREATE INDEX click_events_position ON click_events (xid, seq);

-- ADR 0132: hop serve's fold keeps its counted buckets here, in its transaction, when the
-- visit log or the click events want them, one row a fold. hop serve's integrations
-- thread plans them as visits and click events at the lowest CPU priority; the aggregator
-- thread writes them, 200 rows a transaction (WRITE_OUT_ROWS), recording how far it got
-- in the same transaction, and deletes the row with its last ones. `buckets` is the tally wire format
-- (src/wire/click-tally-wire.ts); `visits` and `click_events` say which logs the fold
-- wanted them in; `recorded_at` is the fold's time.
CREATE TABLE fold_log_spool (
  id           INTEGER PRIMARY KEY,
  recorded_at  INTEGER NOT NULL,
  visits       INTEGER NOT NULL CHECK (visits IN (0, 1)),
  click_events INTEGER NOT NULL CHECK (click_events IN (0, 1)),
  buckets      BLOB NOT NULL,
  visits_done  INTEGER NOT NULL DEFAULT 0,
  events_done  INTEGER NOT NULL DEFAULT 0
) STRICT;

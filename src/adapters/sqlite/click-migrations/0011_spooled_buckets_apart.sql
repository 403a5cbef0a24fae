-- Issue 26: a spooled fold's buckets (a blob of megabytes at high click rates) move to a
-- table of their own. Stored before `visits_done` and `events_done`, the blob's overflow
-- pages were read to reach those columns, and rewritten (compared page by page) by every
-- update of them: once per 200 log rows written out, which cost hop serve's threads more
-- than 2 µs of CPU per click under load (BENCHMARKS.md, 2026-12-06; ADR 0142).
CREATE TABLE fold_log_spool_buckets (
  id      INTEGER PRIMARY KEY,
  buckets BLOB NOT NULL
) STRICT;
INSERT INTO fold_log_spool_buckets (id, buckets) SELECT id, buckets FROM fold_log_spool;
ALTER TABLE fold_log_spool DROP COLUMN buckets;

-- The sweeper's queries (SPEC §7), each answered from a partial index that holds only the
-- rows it is after, so a sweep reads a few index pages instead of scanning every link, and
-- the indexes stay small (most links are active and unexpired; reclaimed rows leave them).
-- Each query repeats its index's WHERE word for word (SQLite uses a partial index only
-- when the query's WHERE implies the index's). EXPLAIN QUERY PLAN below is SQLite 3.51.2
-- (better-sqlite3 12), the same on an empty table and on 200,000 rows with and without
-- ANALYZE; none sorts in a temp B-tree: each index is in the ORDER BY's order.

-- markExpired: active links whose expiry has passed, soonest first.
--   SEARCH links USING INTEGER PRIMARY KEY (rowid=?)
--   LIST SUBQUERY 1
--     SEARCH links USING COVERING INDEX links_due_expiry (expires_at>? AND expires_at<?)
CREATE INDEX links_due_expiry ON links (expires_at)
  WHERE state = 'active' AND expires_at IS NOT NULL;

-- reclaimableLinks: generated codes of expired or deleted links, by the time they became
-- so (deleted_at for tombstones, expires_at for expired links). Custom aliases are never
-- in it: they are never reclaimed (SPEC §2). The max(rowid) subquery is one B-tree descent.
--   SEARCH links USING INDEX links_reclaimable (<expr><?)
--   SCALAR SUBQUERY 1
--     SEARCH links
-- (deleteReclaimed deletes by id: SEARCH links USING INDEX sqlite_autoindex_links_1 (id=?))
CREATE INDEX links_reclaimable ON links (coalesce(deleted_at, expires_at))
  WHERE custom = 0 AND state IN ('expired', 'deleted');

-- purgeIdempotencyRecords: records older than the 24 h they are answered for.
--   SEARCH idempotency_records USING INTEGER PRIMARY KEY (rowid=?)
--   LIST SUBQUERY 1
--     SEARCH idempotency_records USING COVERING INDEX idempotency_records_created_at (created_at<?)
CREATE INDEX idempotency_records_created_at ON idempotency_records (created_at);

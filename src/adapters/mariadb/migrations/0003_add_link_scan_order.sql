-- The order scanCodes reads codes in (issue 25, ADR 0140), in place of PostgreSQL's
-- created_xid. `scan_seq` is handed out when a row is inserted, but rows commit out of that
-- order: a seq missing below rows already read may still commit. `inserted_at` (the
-- server's clock when it wrote the row: SYSDATE, the row's own moment, not its statement's
-- start) tells how long ago such a gap was left: a seq missing below a row inserted longer
-- ago than any transaction stays open was rolled back (or burnt by a duplicate key, or on
-- Galera is another node's seq it never used). Set by the server, never by hop: an
-- import's created_at may be years old, but its rows were inserted just now.
-- One statement: an AUTO_INCREMENT column needs its key in the same ALTER.
ALTER TABLE links
  ADD COLUMN IF NOT EXISTS scan_seq BIGINT NOT NULL AUTO_INCREMENT,
  ADD COLUMN IF NOT EXISTS inserted_at BIGINT NOT NULL
    DEFAULT (FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000)),
  ADD UNIQUE KEY IF NOT EXISTS links_scan_seq (scan_seq);

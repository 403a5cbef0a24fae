-- Named counters leased in blocks (SPEC §2, ADR 0046): the `permutation` strategy's counter and the
-- offset of each pool file (keyed by the pool's id). A lease is one UPDATE ... RETURNING
-- under SQLite's write lock, which is an exclusive lock on the database file: two processes
-- sharing the file never lease the same block.
CREATE TABLE sequences (
  name TEXT    PRIMARY KEY,
  next INTEGER NOT NULL CHECK (next >= 0)
) STRICT;

-- The newest census of links by state (ADR 0100), saved by whichever process counted last,
-- so every instance on this file shows the same counts, with the time they were counted.
-- One row (id = 1); a census counted earlier never replaces one counted later.
CREATE TABLE link_counts (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  total       INTEGER NOT NULL,
  active      INTEGER NOT NULL,
  disabled    INTEGER NOT NULL,
  expired     INTEGER NOT NULL,
  deleted     INTEGER NOT NULL,
  counted_at  INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL
) STRICT;

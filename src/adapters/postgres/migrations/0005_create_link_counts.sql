-- The newest census of links by state (ADR 0100; SQLite's migration 0009), saved by
-- whichever instance counted last, so every instance shows the same counts, with the time
-- they were counted. One row (id = 1); an earlier census never replaces a later one.
CREATE TABLE link_counts (
  id          integer PRIMARY KEY CHECK (id = 1),
  total       bigint  NOT NULL,
  active      bigint  NOT NULL,
  disabled    bigint  NOT NULL,
  expired     bigint  NOT NULL,
  deleted     bigint  NOT NULL,
  counted_at  bigint  NOT NULL,
  duration_ms integer NOT NULL
);

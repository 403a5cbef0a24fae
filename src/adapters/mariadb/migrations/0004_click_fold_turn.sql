-- Folds take turns (issue 25, ADR 0140): each fold first writes this one row. On one node
-- the row's lock makes the next fold wait, as PostgreSQL's advisory lock does; across the
-- nodes of a Galera cluster, two folds that ran at once both wrote it, so the later COMMIT
-- fails certification (1213) and that fold runs again, reading what the first one folded.
-- Each event id is counted once, and the bounds of referrer hosts and cities per link and
-- hour hold, without GET_LOCK (a node's own) or a lock on click_seen rows not made yet.
CREATE TABLE IF NOT EXISTS click_fold_turn (
  id    INT    NOT NULL PRIMARY KEY CHECK (id = 1),
  folds BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

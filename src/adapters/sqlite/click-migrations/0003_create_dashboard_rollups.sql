-- The console's dashboard (ADR 0068) reads two small tables, never click_hourly, so a
-- dashboard left open costs nothing a redirect would notice.

-- Every link's clicks per hour, added to by each fold: "today" and "7 days" sum at most
-- 168 rows.
CREATE TABLE click_hour_totals (
  hour   INTEGER PRIMARY KEY,
  clicks INTEGER NOT NULL
) STRICT;
INSERT INTO click_hour_totals (hour, clicks)
  SELECT hour, sum(clicks) FROM click_hourly GROUP BY hour;

-- The busiest links of the last 7 days, ranked now and then where folds run (the
-- aggregator's thread, or hop worker): the one read of a week of click_hourly.
CREATE TABLE click_busiest (
  link_id TEXT    PRIMARY KEY,
  clicks  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE click_busiest_ranked (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  ranked_at INTEGER NOT NULL
) STRICT;

-- The console's dashboard (ADR 0068) reads two small tables, never click_hourly, so a
-- dashboard left open costs the store next to nothing.

-- Every link's clicks per hour, added to by each fold: "today" and "7 days" sum at most
-- 168 rows.
CREATE TABLE click_hour_totals (
  hour   bigint PRIMARY KEY,
  clicks bigint NOT NULL
);
INSERT INTO click_hour_totals (hour, clicks)
  SELECT hour, sum(clicks) FROM click_hourly GROUP BY hour;

-- The busiest links of the last 7 days, ranked now and then where folds run (hop worker,
-- or each instance folding its own clicks): the one read of a week of click_hourly.
CREATE TABLE click_busiest (
  link_id text COLLATE "C" PRIMARY KEY,
  clicks  bigint NOT NULL
);
CREATE TABLE click_busiest_ranked (
  id        integer PRIMARY KEY CHECK (id = 1),
  ranked_at bigint  NOT NULL
);

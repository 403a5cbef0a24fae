-- The console's dashboard sums every link's clicks of today and this week, and ranks the
-- busiest links: by hour, so it reads the window's rows, not the whole table.
CREATE INDEX click_hourly_by_hour ON click_hourly (hour, link_id) INCLUDE (clicks);

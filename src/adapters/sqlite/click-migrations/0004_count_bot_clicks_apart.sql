-- Bots' clicks are counted apart from people's (ADR 0094): a link's total gets a column for
-- them, and what was folded before is split using click_hourly, which keeps every click's
-- device class and is never pruned. The dashboard's hourly totals lose their bot clicks
-- too; its ranking of the busiest links is made again by the next fold after a restart.
ALTER TABLE click_totals ADD COLUMN bot_clicks INTEGER NOT NULL DEFAULT 0;

UPDATE click_totals SET clicks = click_totals.clicks - bots.n, bot_clicks = bots.n
FROM (
  SELECT link_id, sum(clicks) AS n FROM click_hourly
  WHERE device_class = 'bot' GROUP BY link_id
) AS bots
WHERE bots.link_id = click_totals.link_id;

UPDATE click_hour_totals SET clicks = click_hour_totals.clicks - bots.n
FROM (
  SELECT hour, sum(clicks) AS n FROM click_hourly
  WHERE device_class = 'bot' GROUP BY hour
) AS bots
WHERE bots.hour = click_hour_totals.hour;

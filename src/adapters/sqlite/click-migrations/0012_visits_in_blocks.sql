-- Issue 26 (ADR 0147): the visit log keeps one row per link, hour and write (a fold, or a
-- chunk of a spooled one) instead of one per fold bucket: `rows` holds the bucket rows as
-- a JSON array of [at, country, city, device, os, browser, language, referrer_host, bot,
-- clicks]. A link clicked every second wrote a row a second into two indexes at random
-- places; under 10,000 such links that was a fifth of hop serve's CPU. A visit's id is
-- now its block's id times 65,536 plus its place from the end (sqlite-visit-log.ts).
CREATE TABLE visit_blocks (
  id        INTEGER PRIMARY KEY,
  link_id   TEXT    NOT NULL,
  -- The block's newest and oldest `at`, within one hour.
  newest_at INTEGER NOT NULL,
  oldest_at INTEGER NOT NULL,
  rows      TEXT    NOT NULL
) STRICT;
-- A link's blocks newest first: a page reads from its position back.
CREATE INDEX visit_blocks_link ON visit_blocks (link_id, newest_at DESC, id DESC);
-- Retention deletes the oldest first, in bounded batches.
CREATE INDEX visit_blocks_newest_at ON visit_blocks (newest_at);
-- Each row of before becomes a block of its own, under the row's id.
INSERT INTO visit_blocks (id, link_id, newest_at, oldest_at, rows)
  SELECT id, link_id, at, at,
    json_array(json_array(at, country, city, device, os, browser, language, referrer_host,
      bot, clicks))
  FROM visits;
DROP TABLE visits;

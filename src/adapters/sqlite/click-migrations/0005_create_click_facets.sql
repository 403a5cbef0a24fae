-- Issue 21: people's clicks per link and hour by agent (`browser/os`, e.g. chrome/windows:
-- one row for the pair, not one for each) and by city (ADR 0109), counted apart rather than
-- as more columns of click_hourly's key, whose rows would multiply by every combination.
-- Bots' clicks are in no facet (ADR 0094).
-- Cities are bounded per link and hour like referrer hosts: past the bound, `other`.
-- Clicks folded before this have no facets: they are in click_hourly alone.
CREATE TABLE click_hourly_facets (
  link_id TEXT    NOT NULL,
  hour    INTEGER NOT NULL,
  facet   TEXT    NOT NULL CHECK (facet IN ('agent', 'city')),
  value   TEXT    NOT NULL,
  clicks  INTEGER NOT NULL,
  PRIMARY KEY (link_id, hour, facet, value)
) STRICT, WITHOUT ROWID;

-- Issue 24 (ADR 0136): an imported link starts with the clicks it had on the shortener it
-- came from. Its total (`clicks`) holds them from the import on, and this column says how
-- many of them there are, so that setting them again replaces them instead of adding them
-- twice. click_hourly has none of them: no hour, breakdown or visit is made up.
ALTER TABLE click_totals ADD COLUMN starting_clicks INTEGER NOT NULL DEFAULT 0;

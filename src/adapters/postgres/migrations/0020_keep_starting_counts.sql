-- Issue 24 (ADR 0136): an imported link starts with the clicks it had on the shortener it
-- came from. Its total (`clicks`) holds them from the import on, and this column says how
-- many of them there are, so that setting them again replaces them instead of adding them
-- twice. click_hourly has none of them: no hour, breakdown or visit is made up.
ALTER TABLE click_totals ADD COLUMN starting_clicks bigint NOT NULL DEFAULT 0;

-- An imported link keeps its creation time (issue 24), which may be years ago: its
-- link.created event occurs when hop wrote it (updated_at, which a create sets to its
-- created_at), so retention does not forget it before the webhooks and streams read it.
CREATE OR REPLACE FUNCTION hop_link_created_event() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO link_events (type, occurred_at, link)
    VALUES ('link.created', NEW.updated_at, to_jsonb(NEW) - 'created_xid');
  RETURN NULL;
END $$;

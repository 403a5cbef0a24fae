-- The outbox of link events (issue 23, ADR 0127): every link created or changed, with the
-- row as the change left it, written by triggers in the writing transaction, so no writer
-- can forget one and none is kept for a change that rolled back.
--
-- A bigserial is handed out when a row is inserted, not when its transaction commits, so
-- seq order is not commit order here. Each event keeps its transaction's id, and readers
-- go by (xid, seq), only below the oldest transaction still running
-- (pg_snapshot_xmin): no event can appear later behind a position already read. This is
-- the same rule as the code scan's.
CREATE TABLE link_events (
  seq         bigserial PRIMARY KEY,
  xid         xid8   NOT NULL DEFAULT pg_current_xact_id(),
  type        text   NOT NULL CHECK (type IN ('link.created', 'link.updated', 'link.deleted')),
  occurred_at bigint NOT NULL,
  -- The links row as jsonb, column by column (a deleted link: its tombstone).
  link        jsonb  NOT NULL
);
CREATE INDEX link_events_position ON link_events (xid, seq);
CREATE INDEX link_events_by_time ON link_events (occurred_at);

-- Each function keeps the search_path it was made with (hop's schema), so the trigger
-- finds link_events whichever search_path the writing session has.
CREATE FUNCTION hop_link_created_event() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO link_events (type, occurred_at, link)
    VALUES ('link.created', NEW.created_at, to_jsonb(NEW) - 'created_xid');
  RETURN NULL;
END $$;

-- Every change grows the version (a compare-and-set on it); a change that deletes the
-- link is link.deleted, any other link.updated.
CREATE FUNCTION hop_link_changed_event() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO link_events (type, occurred_at, link)
    VALUES (CASE WHEN NEW.state = 'deleted' AND OLD.state <> 'deleted'
              THEN 'link.deleted' ELSE 'link.updated' END,
            NEW.updated_at, to_jsonb(NEW) - 'created_xid');
  RETURN NULL;
END $$;

CREATE TRIGGER links_event_created AFTER INSERT ON links
  FOR EACH ROW EXECUTE FUNCTION hop_link_created_event();
CREATE TRIGGER links_event_changed AFTER UPDATE OF version ON links
  FOR EACH ROW WHEN (NEW.version <> OLD.version) EXECUTE FUNCTION hop_link_changed_event();

-- The outbox of link events (issue 23, ADR 0127): every link created or changed, with the
-- row as the change left it, written in the writing transaction, so none is kept for a
-- change that rolled back. Changes are written by a trigger, so no writer (API, bulk,
-- tags, sweeper, CLI) can forget one. Creates are written by the link repository, one
-- statement per batch: an INSERT trigger on `links` made every insert about five times
-- slower here, even one whose body does nothing (ADR 0127). Webhooks and the event
-- stream read it in seq order, which on SQLite's one writer is commit order;
-- AUTOINCREMENT never reuses a seq, so a reader's position never skips an event. Old
-- events are forgotten after a window.
CREATE TABLE link_events (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  type        TEXT    NOT NULL CHECK (type IN ('link.created', 'link.updated', 'link.deleted')),
  occurred_at INTEGER NOT NULL,
  -- The links row as JSON, column by column (a deleted link: its tombstone).
  link        TEXT    NOT NULL
) STRICT;
CREATE INDEX link_events_by_time ON link_events (occurred_at);

-- Every change grows the version (a compare-and-set on it); a change that deletes the
-- link is link.deleted, any other link.updated.
CREATE TRIGGER links_event_changed AFTER UPDATE OF version ON links
  WHEN NEW.version <> OLD.version
BEGIN
  INSERT INTO link_events (type, occurred_at, link)
    VALUES (CASE WHEN NEW.state = 'deleted' AND OLD.state <> 'deleted'
              THEN 'link.deleted' ELSE 'link.updated' END,
            NEW.updated_at, json_object('id', NEW.id, 'code', NEW.code, 'owner', NEW.owner, 'destination', NEW.destination, 'status_code', NEW.status_code, 'state', NEW.state, 'custom', NEW.custom, 'title', NEW.title, 'tags', NEW.tags, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at, 'expires_at', NEW.expires_at, 'deleted_at', NEW.deleted_at, 'version', NEW.version, 'smart', NEW.smart, 'domain', NEW.domain, 'preview', NEW.preview, 'crawlable', NEW.crawlable));
END;

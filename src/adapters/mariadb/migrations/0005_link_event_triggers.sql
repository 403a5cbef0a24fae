-- The event logs on MariaDB (issue 25, ADR 0140): link events written by triggers on
-- `links` in the writing transaction, as on PostgreSQL (ADR 0127), and what readers need to
-- keep to commit order without PostgreSQL's snapshot horizon (mariadb-event-positions.ts).
--
-- Needs the TRIGGER privilege on `links`. With binary logging on (a Galera node often has it)
-- and log_bin_trust_function_creators off, MariaDB also asks for SUPER to create a trigger:
-- set log_bin_trust_function_creators = 1 (safe with row-based logging, which Galera uses)
-- or run the migrations as a user that has it. A trigger runs as its DEFINER, the user that
-- ran this file: dropping that user makes every write to `links` fail (error 1449).

-- When the server wrote each event, by its own clock (SYSDATE: the row's own moment, not its
-- statement's start), in epoch ms. A reader passes a gap in the sequence once the row after
-- it is older than the settle bound: whatever took the missing numbers has ended by then.
-- A column default, so the fold's INSERT into click_events needs to name it nowhere.
ALTER TABLE link_events ADD COLUMN IF NOT EXISTS
  written_at BIGINT NOT NULL DEFAULT (FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000));
ALTER TABLE click_events ADD COLUMN IF NOT EXISTS
  written_at BIGINT NOT NULL DEFAULT (FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000));

-- The highest sequence number retention has deleted from each log: a missing number at or
-- below it was an event, forgotten, never a transaction still to commit, so a reader
-- starting before forgotten events is not held back by their absence.
CREATE TABLE IF NOT EXISTS forgotten_events (
  log         VARCHAR(32) NOT NULL PRIMARY KEY CHECK (log IN ('link_events', 'click_events')),
  through_seq BIGINT      NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The links row as JSON, every column by name, booleans as JSON booleans and tags as the
-- JSON array it is (smart and preview are JSON text in TEXT columns: kept as strings, as
-- PostgreSQL's to_jsonb keeps them). A column added to `links` must be added here too.
--
-- link.created occurs when hop wrote the link (updated_at, which a create sets; an
-- imported link may keep an older created_at: ADR 0136).
CREATE OR REPLACE TRIGGER links_event_created AFTER INSERT ON links FOR EACH ROW
  INSERT INTO link_events (type, occurred_at, link)
  VALUES ('link.created', NEW.updated_at, JSON_OBJECT(
    'id', NEW.id, 'code', NEW.code, 'owner', NEW.owner, 'destination', NEW.destination,
    'status_code', NEW.status_code, 'state', NEW.state, 'custom', NEW.custom IS TRUE,
    'title', NEW.title, 'tags', NEW.tags, 'created_at', NEW.created_at,
    'updated_at', NEW.updated_at, 'expires_at', NEW.expires_at, 'deleted_at', NEW.deleted_at,
    'version', NEW.version, 'smart', NEW.smart, 'domain', NEW.domain, 'preview', NEW.preview,
    'crawlable', NEW.crawlable IS TRUE));

-- Every change grows the version (a compare-and-set on it); a change that deletes the link
-- is link.deleted, any other link.updated. The condition is an IF, not the WHERE of an
-- INSERT ... SELECT: a simple INSERT ... VALUES takes its AUTO_INCREMENT value under a short
-- mutex, where (innodb_autoinc_lock_mode = 1) an INSERT ... SELECT holds the table's AUTO-INC
-- lock to the end of its statement, which here is a whole sweep's UPDATE.
CREATE OR REPLACE TRIGGER links_event_changed AFTER UPDATE ON links FOR EACH ROW
BEGIN
  IF NEW.version <> OLD.version THEN
    INSERT INTO link_events (type, occurred_at, link)
    VALUES (IF(NEW.state = 'deleted' AND OLD.state <> 'deleted', 'link.deleted', 'link.updated'),
      NEW.updated_at, JSON_OBJECT(
        'id', NEW.id, 'code', NEW.code, 'owner', NEW.owner, 'destination', NEW.destination,
        'status_code', NEW.status_code, 'state', NEW.state, 'custom', NEW.custom IS TRUE,
        'title', NEW.title, 'tags', NEW.tags, 'created_at', NEW.created_at,
        'updated_at', NEW.updated_at, 'expires_at', NEW.expires_at,
        'deleted_at', NEW.deleted_at, 'version', NEW.version, 'smart', NEW.smart,
        'domain', NEW.domain, 'preview', NEW.preview, 'crawlable', NEW.crawlable IS TRUE));
  END IF;
END;

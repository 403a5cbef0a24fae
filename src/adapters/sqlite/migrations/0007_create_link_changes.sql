-- Every change to a link (edit, disable, enable, delete, expiry), in commit order, so that
-- `hop serve` drops links changed by another process on the same file (the CLI, `hop
-- sweep` from cron, a second server) from its L1 within about a second instead of at its
-- TTL (ADR 0073). Written by a trigger, so no writer can forget it.
-- AUTOINCREMENT: a seq is never used twice, even once every row is deleted, so a reader's
-- cursor never skips a change. SQLite has one writer, so seq order is commit order.
CREATE TABLE link_changes (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  code       TEXT    NOT NULL,
  version    INTEGER NOT NULL,
  changed_at INTEGER NOT NULL
) STRICT;
CREATE INDEX link_changes_by_time ON link_changes (changed_at);

CREATE TRIGGER links_changed AFTER UPDATE OF version ON links
  WHEN NEW.version <> OLD.version
BEGIN
  INSERT INTO link_changes (code, version, changed_at)
    VALUES (NEW.code, NEW.version, NEW.updated_at);
END;

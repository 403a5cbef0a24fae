-- Short domains (issue 22, ADR 0115). A link belongs to one domain; codes are unique per
-- domain, so `code UNIQUE` becomes UNIQUE (domain, code). SQLite cannot drop a column's
-- UNIQUE constraint, so the table is rebuilt; rowids are copied as they are (the code scan
-- reads rows added after its first pass by rowid, ADR 0051). Links on the default domain
-- (the host of HOP_PUBLIC_URL) store the empty host. A link also gains what it shows when
-- shared (`preview`, JSON) and whether search engines may index it (`crawlable`).
CREATE TABLE links_with_domains (
  id          TEXT    PRIMARY KEY,
  domain      TEXT    NOT NULL DEFAULT '',
  code        TEXT    NOT NULL,
  owner       TEXT    NOT NULL,
  destination TEXT    NOT NULL,
  status_code INTEGER NOT NULL CHECK (status_code IN (301, 302, 307, 308)),
  state       TEXT    NOT NULL CHECK (state IN ('active', 'disabled', 'expired', 'deleted')),
  custom      INTEGER NOT NULL CHECK (custom IN (0, 1)),
  title       TEXT,
  tags        TEXT    NOT NULL DEFAULT '[]',
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  expires_at  INTEGER,
  deleted_at  INTEGER,
  version     INTEGER NOT NULL,
  smart       TEXT,
  preview     TEXT,
  crawlable   INTEGER NOT NULL DEFAULT 0 CHECK (crawlable IN (0, 1)),
  UNIQUE (domain, code)
) STRICT;

INSERT INTO links_with_domains (rowid, id, domain, code, owner, destination, status_code, state,
    custom, title, tags, created_at, updated_at, expires_at, deleted_at, version, smart)
  SELECT rowid, id, '', code, owner, destination, status_code, state, custom, title, tags,
    created_at, updated_at, expires_at, deleted_at, version, smart
  FROM links;

DROP TABLE links;
ALTER TABLE links_with_domains RENAME TO links;

CREATE INDEX links_owner_id ON links (owner, id);
-- The redirect's covering index (migrations 0002, 0003, 0010), now led by the domain: a
-- redirect reads (domain, code) and everything it answers with from this one index.
CREATE INDEX links_redirect ON links (domain, code, state, status_code, expires_at, version, id, crawlable, destination, smart);
CREATE INDEX links_due_expiry ON links (expires_at)
  WHERE state = 'active' AND expires_at IS NOT NULL;
CREATE INDEX links_reclaimable ON links (coalesce(deleted_at, expires_at))
  WHERE custom = 0 AND state IN ('expired', 'deleted');
-- Lists by domain (issue 22), newest first like every list.
CREATE INDEX links_domain_id ON links (domain, id);

-- The change feed (migration 0007) names a link by its key: the code on the default
-- domain, `host/code` on any other (ADR 0115), as caches and invalidations do.
CREATE TRIGGER links_changed AFTER UPDATE OF version ON links
  WHEN NEW.version <> OLD.version
BEGIN
  INSERT INTO link_changes (code, version, changed_at)
    VALUES (CASE NEW.domain WHEN '' THEN NEW.code ELSE NEW.domain || '/' || NEW.code END,
            NEW.version, NEW.updated_at);
END;

-- The domains other than the default one, and the default's own redirects (host '').
CREATE TABLE domains (
  host               TEXT    PRIMARY KEY,
  root_redirect      TEXT,
  not_found_redirect TEXT,
  https              INTEGER NOT NULL CHECK (https IN (0, 1)),
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
) STRICT;

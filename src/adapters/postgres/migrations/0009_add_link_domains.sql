-- Short domains (issue 22, ADR 0115): codes are unique per domain. Links on the default
-- domain (the host of HOP_PUBLIC_URL) store the empty host. Adding a column with a constant
-- default rewrites nothing (PostgreSQL 11+); the new unique index is built before the old
-- one is dropped, so the conditional insert always has an arbiter. A link also gains what
-- it shows when shared (`preview`) and whether search engines may index it (`crawlable`).
ALTER TABLE links
  ADD COLUMN domain    text COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN preview   text,
  ADD COLUMN crawlable boolean NOT NULL DEFAULT false;

CREATE UNIQUE INDEX links_domain_code ON links (domain, code);
DROP INDEX links_code;
-- Lists by domain, newest first like every list.
CREATE INDEX links_domain_id ON links (domain, id);

-- The domains other than the default one, and the default's own redirects (host '').
CREATE TABLE domains (
  host               text COLLATE "C" PRIMARY KEY,
  root_redirect      text,
  not_found_redirect text,
  https              boolean NOT NULL,
  created_at         bigint  NOT NULL,
  updated_at         bigint  NOT NULL
);

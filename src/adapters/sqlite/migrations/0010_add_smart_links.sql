-- Smart links (issue 21): rules, variants, password hash, click limit, fallback and query
-- forwarding, as the JSON of the domain's SmartOptions; NULL for a plain link. The
-- redirect's covering index carries it too, so a cache miss still reads one index; a plain
-- link adds one NULL to its entry.
ALTER TABLE links ADD COLUMN smart TEXT;
DROP INDEX links_redirect;
CREATE INDEX links_redirect ON links (code, state, status_code, expires_at, version, id, destination, smart);

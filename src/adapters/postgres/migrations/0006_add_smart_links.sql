-- Smart links (issue 21): rules, variants, password hash, click limit, fallback and query
-- forwarding, as the JSON text of the domain's SmartOptions (the same bytes SQLite keeps);
-- NULL for a plain link. Adding a nullable column without a default rewrites nothing.
ALTER TABLE links ADD COLUMN smart text;

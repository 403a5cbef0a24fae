-- Keys that can do only their job (issue 22, ADR 0118; SQLite's migration 0014). Every
-- column is NULL on the keys made before: NULL scopes is the owner default (links and
-- analytics, read and write), NULL domains is every domain, NULL expires_at never expires.
-- domains holds stored hosts ('' is the default domain).
ALTER TABLE api_keys
  ADD COLUMN name         text,
  ADD COLUMN scopes       jsonb CHECK (scopes IS NULL OR jsonb_typeof(scopes) = 'array'),
  ADD COLUMN domains      jsonb CHECK (domains IS NULL OR jsonb_typeof(domains) = 'array'),
  ADD COLUMN expires_at   bigint,
  -- Written at most once a minute per key, never once per request.
  ADD COLUMN last_used_at bigint;

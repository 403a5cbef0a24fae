-- Keys that can do only their job (issue 22, ADR 0118). Every column is NULL on the keys
-- made before: NULL scopes is the owner default (links and analytics, read and write), NULL
-- domains is every domain, NULL expires_at never expires. scopes and domains are JSON
-- arrays of strings; domains holds stored hosts ('' is the default domain).
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN scopes TEXT CHECK (scopes IS NULL OR json_type(scopes) = 'array');
ALTER TABLE api_keys ADD COLUMN domains TEXT CHECK (domains IS NULL OR json_type(domains) = 'array');
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
-- Written at most once a minute per key, never once per request.
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;

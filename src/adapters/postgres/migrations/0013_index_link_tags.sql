-- Tag filters and tag changes (issue 22, ADR 0119): `tags ?| array`, `tags ?& array` and
-- `tags ? name` find the links carrying tags through this index instead of reading every
-- row of an owner. jsonb_ops (not jsonb_path_ops): only it serves ? ?| ?&.
CREATE INDEX links_tags ON links USING gin (tags);

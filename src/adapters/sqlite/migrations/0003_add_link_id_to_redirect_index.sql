-- The redirect's covering index now carries the link id too: a counted click (SPEC §6)
-- names its link. Rebuilding it holds the write lock for as long as building 0002 did
-- (22 s at ten million links on the machine of BENCHMARKS.md).
DROP INDEX links_redirect;
CREATE INDEX links_redirect ON links (code, state, status_code, expires_at, version, id, destination);

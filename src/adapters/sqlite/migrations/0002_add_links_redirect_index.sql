-- The redirect's store read (findRedirectByCode) answered from one index: code plus every
-- column a redirect needs, so a miss in L1 reads index pages only, never the table. With
-- ten million links the table is far larger than any page cache; this read descends one
-- B-tree instead of two (ADR 0025: `uniform` at 10M links).
CREATE INDEX links_redirect ON links (code, state, status_code, expires_at, version, destination);

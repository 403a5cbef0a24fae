-- Redirects taken by links with a click limit (issue 21 `max_clicks`, ADR 0111; SQLite's
-- migration 0011): one row per such link, created by its first redirect and raised by one
-- per redirect while below the limit, so every instance draws from one exact count. Links
-- without a limit have no row. No foreign key: whoever purges the link forgets its count
-- (RedirectAllowance.forget).
CREATE TABLE redirect_allowances (
  link_id text   COLLATE "C" PRIMARY KEY,
  taken   bigint NOT NULL CHECK (taken >= 1)
);

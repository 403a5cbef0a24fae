-- ADR 0131: click events are written only while someone can read them. `until_ms` is how
-- long the last stream or click webhook seen keeps them written (its events stay
-- resumable that long); kept here so that a restart does not stop them while a client
-- is about to resume.
CREATE TABLE click_event_demand (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  until_ms INTEGER NOT NULL
) STRICT;

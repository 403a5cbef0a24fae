-- Webhooks (issue 23, ADR 0128): endpoints, one delivery per event and webhook with the
-- body fixed at fan-out, and how far the fan-out has read each event log.
CREATE TABLE webhooks (
  id          TEXT    PRIMARY KEY,
  owner       TEXT    NOT NULL,
  -- Made by an admin key: told of every owner's links.
  all_links   INTEGER NOT NULL CHECK (all_links IN (0, 1)),
  url         TEXT    NOT NULL,
  events      TEXT    NOT NULL CHECK (json_type(events) = 'array'),
  description TEXT,
  secret      TEXT    NOT NULL,
  paused      INTEGER NOT NULL CHECK (paused IN (0, 1)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX webhooks_by_owner ON webhooks (owner, id);

CREATE TABLE webhook_deliveries (
  id               TEXT    PRIMARY KEY,
  webhook_id       TEXT    NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  message_id       TEXT    NOT NULL,
  event_type       TEXT    NOT NULL,
  body             TEXT    NOT NULL,
  status           TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL,
  next_attempt_at  INTEGER NOT NULL,
  lease_until      INTEGER,
  give_up_at       INTEGER NOT NULL,
  last_status_code INTEGER,
  last_error       TEXT,
  last_attempt_at  INTEGER,
  created_at       INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
-- Only pending deliveries are ever claimed: the index holds nothing else.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_fanout (
  source   TEXT PRIMARY KEY,
  position TEXT NOT NULL
) STRICT;

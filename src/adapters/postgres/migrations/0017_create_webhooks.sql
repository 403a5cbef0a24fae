-- Webhooks (issue 23, ADR 0128): endpoints, one delivery per event and webhook with the
-- body fixed at fan-out, and how far the fan-out has read each event log. Instances claim
-- due deliveries with FOR UPDATE SKIP LOCKED and a lease; a fan-out step locks its
-- source's position row, so one instance fans out at a time.
CREATE TABLE webhooks (
  id          text    PRIMARY KEY,
  owner       text    NOT NULL,
  -- Made by an admin key: told of every owner's links.
  all_links   boolean NOT NULL,
  url         text    NOT NULL,
  events      jsonb   NOT NULL CHECK (jsonb_typeof(events) = 'array'),
  description text,
  secret      text    NOT NULL,
  paused      boolean NOT NULL,
  created_at  bigint  NOT NULL,
  updated_at  bigint  NOT NULL
);
CREATE INDEX webhooks_by_owner ON webhooks (owner, id);

CREATE TABLE webhook_deliveries (
  id               text    PRIMARY KEY,
  webhook_id       text    NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  message_id       text    NOT NULL,
  event_type       text    NOT NULL,
  body             text    NOT NULL,
  status           text    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL,
  next_attempt_at  bigint  NOT NULL,
  lease_until      bigint,
  give_up_at       bigint  NOT NULL,
  last_status_code integer,
  last_error       text,
  last_attempt_at  bigint,
  created_at       bigint  NOT NULL
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_fanout (
  source   text PRIMARY KEY,
  position text NOT NULL
);

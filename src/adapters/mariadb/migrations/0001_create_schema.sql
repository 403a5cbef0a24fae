-- hop's schema on MariaDB/MySQL (issue 25, ADR 0140): PostgreSQL's tables as migrations
-- 0001–0020 left them, in one file. Times are epoch milliseconds (BIGINT). Every table is
-- utf8mb4_bin: codes are case-sensitive, ULIDs sort by time, and every comparison and order
-- is byte by byte as on SQLite and PostgreSQL (COLLATE "C"). Every table has a primary key,
-- which Galera needs to replicate rows. Each statement may run twice (IF NOT EXISTS):
-- MariaDB's DDL is not transactional, and instances in several regions may start at once.

CREATE TABLE IF NOT EXISTS links (
  id          VARCHAR(64)  NOT NULL PRIMARY KEY,
  code        VARCHAR(64)  NOT NULL,
  owner       VARCHAR(255) NOT NULL,
  destination TEXT         NOT NULL,
  status_code SMALLINT     NOT NULL CHECK (status_code IN (301, 302, 307, 308)),
  state       VARCHAR(16)  NOT NULL CHECK (state IN ('active', 'disabled', 'expired', 'deleted')),
  custom      BOOLEAN      NOT NULL,
  title       TEXT,
  tags        JSON         NOT NULL DEFAULT '[]' CHECK (JSON_VALID(tags)),
  created_at  BIGINT       NOT NULL,
  updated_at  BIGINT       NOT NULL,
  expires_at  BIGINT,
  deleted_at  BIGINT,
  version     INT          NOT NULL,
  smart       MEDIUMTEXT,
  domain      VARCHAR(253) NOT NULL DEFAULT '',
  preview     TEXT,
  crawlable   BOOLEAN      NOT NULL DEFAULT FALSE,
  UNIQUE KEY links_domain_code (domain, code),
  KEY links_owner_id (owner, id),
  KEY links_domain_id (domain, id),
  KEY links_due_expiry (state, expires_at),
  KEY links_reclaimable (custom, state, deleted_at, expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS idempotency_records (
  owner        VARCHAR(255) NOT NULL,
  `key`        VARCHAR(255) NOT NULL,
  request_hash VARCHAR(128) NOT NULL,
  link_id      VARCHAR(64)  NOT NULL,
  response     MEDIUMTEXT   NOT NULL,
  created_at   BIGINT       NOT NULL,
  PRIMARY KEY (owner, `key`),
  KEY idempotency_records_created_at (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS api_keys (
  id           VARCHAR(64)  NOT NULL PRIMARY KEY,
  owner        VARCHAR(255) NOT NULL,
  admin        BOOLEAN      NOT NULL,
  key_hash     VARCHAR(128) NOT NULL,
  prefix       VARCHAR(64)  NOT NULL,
  created_at   BIGINT       NOT NULL,
  revoked_at   BIGINT,
  name         TEXT,
  scopes       JSON CHECK (scopes IS NULL OR JSON_TYPE(scopes) = 'ARRAY'),
  domains      JSON CHECK (domains IS NULL OR JSON_TYPE(domains) = 'ARRAY'),
  expires_at   BIGINT,
  -- Written at most once a minute per key, never once per request.
  last_used_at BIGINT,
  UNIQUE KEY api_keys_key_hash (key_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Named counters leased in blocks: the permutation counter and pool offsets.
CREATE TABLE IF NOT EXISTS sequences (
  name VARCHAR(255) NOT NULL PRIMARY KEY,
  next BIGINT       NOT NULL CHECK (next >= 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Click aggregates (SPEC §4, §6), folded by `hop worker` or by each instance.
CREATE TABLE IF NOT EXISTS click_hourly (
  link_id       VARCHAR(64)  NOT NULL,
  hour          BIGINT       NOT NULL,
  country       VARCHAR(16)  NOT NULL,
  device_class  VARCHAR(32)  NOT NULL,
  referrer_host VARCHAR(255) NOT NULL,
  clicks        BIGINT       NOT NULL,
  PRIMARY KEY (link_id, hour, country, device_class, referrer_host)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_totals (
  link_id         VARCHAR(64) NOT NULL PRIMARY KEY,
  clicks          BIGINT      NOT NULL,
  bot_clicks      BIGINT      NOT NULL DEFAULT 0,
  starting_clicks BIGINT      NOT NULL DEFAULT 0
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Event ids already folded, per emitting instance, as intervals of sequence numbers.
CREATE TABLE IF NOT EXISTS click_seen (
  instance   VARCHAR(255) NOT NULL PRIMARY KEY,
  intervals  JSON         NOT NULL CHECK (JSON_VALID(intervals)),
  updated_at BIGINT       NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_freshness (
  id        INT    NOT NULL PRIMARY KEY CHECK (id = 1),
  newest_at BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The console's dashboard (ADR 0068) reads these two small tables, never click_hourly.
CREATE TABLE IF NOT EXISTS click_hour_totals (
  hour   BIGINT NOT NULL PRIMARY KEY,
  clicks BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_busiest (
  link_id VARCHAR(64) NOT NULL PRIMARY KEY,
  clicks  BIGINT      NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_busiest_ranked (
  id        INT    NOT NULL PRIMARY KEY CHECK (id = 1),
  ranked_at BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_hourly_facets (
  link_id VARCHAR(64)  NOT NULL,
  hour    BIGINT       NOT NULL,
  facet   VARCHAR(16)  NOT NULL CHECK (facet IN ('agent', 'city')),
  value   VARCHAR(255) NOT NULL,
  clicks  BIGINT       NOT NULL,
  PRIMARY KEY (link_id, hour, facet, value)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Signed-out console sessions until they would have expired (ADR 0064).
CREATE TABLE IF NOT EXISTS ended_console_sessions (
  token_hash VARCHAR(128) NOT NULL PRIMARY KEY,
  expires_at BIGINT       NOT NULL,
  KEY ended_console_sessions_by_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS link_counts (
  id          INT    NOT NULL PRIMARY KEY CHECK (id = 1),
  total       BIGINT NOT NULL,
  active      BIGINT NOT NULL,
  disabled    BIGINT NOT NULL,
  expired     BIGINT NOT NULL,
  deleted     BIGINT NOT NULL,
  counted_at  BIGINT NOT NULL,
  duration_ms INT    NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS redirect_allowances (
  link_id VARCHAR(64) NOT NULL PRIMARY KEY,
  taken   BIGINT      NOT NULL CHECK (taken >= 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS domains (
  host               VARCHAR(253) NOT NULL PRIMARY KEY,
  root_redirect      TEXT,
  not_found_redirect TEXT,
  https              BOOLEAN      NOT NULL,
  created_at         BIGINT       NOT NULL,
  updated_at         BIGINT       NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS bulk_answers (
  owner        VARCHAR(255) NOT NULL,
  `key`        VARCHAR(255) NOT NULL,
  request_hash VARCHAR(128) NOT NULL,
  secrets_hash VARCHAR(128),
  answer       LONGTEXT,
  created_at   BIGINT       NOT NULL,
  PRIMARY KEY (owner, `key`),
  KEY bulk_answers_created_at (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The visit log (issue 23): no partitions here; retention deletes in batches by `at`.
CREATE TABLE IF NOT EXISTS visits (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  link_id       VARCHAR(64)  NOT NULL,
  at            BIGINT       NOT NULL,
  country       VARCHAR(16),
  city          VARCHAR(255),
  device        VARCHAR(32)  NOT NULL,
  os            VARCHAR(64)  NOT NULL,
  browser       VARCHAR(64)  NOT NULL,
  language      VARCHAR(64),
  referrer_host VARCHAR(255),
  bot           BOOLEAN      NOT NULL,
  clicks        INT          NOT NULL DEFAULT 1 CHECK (clicks > 0),
  KEY visits_link_at (link_id, at, id),
  KEY visits_at (at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS click_events (
  seq         BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
  link_id     VARCHAR(64) NOT NULL,
  second      BIGINT      NOT NULL,
  clicks      BIGINT      NOT NULL,
  bot_clicks  BIGINT      NOT NULL,
  dimensions  JSON        NOT NULL CHECK (JSON_VALID(dimensions)),
  recorded_at BIGINT      NOT NULL,
  KEY click_events_recorded_at (recorded_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS link_events (
  seq         BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
  type        VARCHAR(32) NOT NULL CHECK (type IN ('link.created', 'link.updated', 'link.deleted')),
  occurred_at BIGINT      NOT NULL,
  -- The links row as JSON, column by column (a deleted link: its tombstone).
  link        JSON        NOT NULL CHECK (JSON_VALID(link)),
  KEY link_events_by_time (occurred_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS webhooks (
  id          VARCHAR(64)  NOT NULL PRIMARY KEY,
  owner       VARCHAR(255) NOT NULL,
  -- Made by an admin key: told of every owner's links.
  all_links   BOOLEAN      NOT NULL,
  url         TEXT         NOT NULL,
  events      JSON         NOT NULL CHECK (JSON_TYPE(events) = 'ARRAY'),
  description TEXT,
  secret      VARCHAR(255) NOT NULL,
  paused      BOOLEAN      NOT NULL,
  created_at  BIGINT       NOT NULL,
  updated_at  BIGINT       NOT NULL,
  KEY webhooks_by_owner (owner, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               VARCHAR(64)  NOT NULL PRIMARY KEY,
  webhook_id       VARCHAR(64)  NOT NULL,
  message_id       VARCHAR(128) NOT NULL,
  event_type       VARCHAR(32)  NOT NULL,
  body             LONGTEXT     NOT NULL,
  status           VARCHAR(16)  NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INT          NOT NULL,
  next_attempt_at  BIGINT       NOT NULL,
  lease_until      BIGINT,
  give_up_at       BIGINT       NOT NULL,
  last_status_code INT,
  last_error       TEXT,
  last_attempt_at  BIGINT,
  created_at       BIGINT       NOT NULL,
  KEY webhook_deliveries_by_webhook (webhook_id, id),
  KEY webhook_deliveries_due (status, next_attempt_at),
  KEY webhook_deliveries_finished (status, last_attempt_at),
  CONSTRAINT webhook_deliveries_webhook FOREIGN KEY (webhook_id) REFERENCES webhooks (id)
    ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS webhook_fanout (
  source   VARCHAR(64)  NOT NULL PRIMARY KEY,
  position VARCHAR(255) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

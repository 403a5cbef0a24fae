-- Answers of bulk link calls made with an Idempotency-Key (issue 22, ADR 0120). A row is
-- claimed (answer NULL) before the call runs and answered when it ends; replays read it.
-- Apart from idempotency_records, whose rows hold one link each.
CREATE TABLE bulk_answers (
  owner        text   NOT NULL,
  key          text   NOT NULL,
  request_hash text   NOT NULL,
  secrets_hash text,
  answer       text,
  created_at   bigint NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX bulk_answers_created_at ON bulk_answers (created_at);

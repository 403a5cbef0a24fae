-- ADR 0128 (retention): finished deliveries are forgotten once their last attempt is older
-- than HOP_WEBHOOK_KEEP_DELIVERED or HOP_WEBHOOK_KEEP_FAILED, oldest first, in batches.
-- One index per status, so that only finished rows are in them and the pending ones cost
-- nothing more.
CREATE INDEX webhook_deliveries_delivered ON webhook_deliveries (last_attempt_at)
  WHERE status = 'delivered';
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (last_attempt_at)
  WHERE status = 'failed';

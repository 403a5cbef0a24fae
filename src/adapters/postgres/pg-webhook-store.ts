import type pg from 'pg';
import type { Webhook, WebhookDelivery } from '../../domain/webhook.js';
import type {
  ClaimedDelivery,
  FanOutPlan,
  FinishedStatus,
  RecordedAttempt,
  WebhookStore,
} from '../../ports/webhook-store.js';
import {
  DELIVERY_COLUMNS,
  deliveryFromRow,
  WEBHOOK_COLUMNS,
  webhookFromRow,
  webhookValues,
  type DeliveryRow,
  type WebhookRow,
} from '../sql/webhook-rows.js';
import { guardPg } from './pg-errors.js';
import { inTransaction } from './pg-transaction.js';

type ClaimRow = DeliveryRow & { url: string; secret: string };

const D_COLUMNS = DELIVERY_COLUMNS.split(', ')
  .map((column) => `d.${column}`)
  .join(', ');

/**
 * Webhooks on PostgreSQL (migration 0017, ADR 0128). A fan-out step holds its source's
 * position row FOR UPDATE for the whole step, so instances take turns; a claim takes due
 * rows FOR UPDATE SKIP LOCKED and leases them, so each is claimed by one instance.
 */
export class PgWebhookStore implements WebhookStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async insertWebhook(webhook: Webhook): Promise<void> {
    const v = webhookValues(webhook, false);
    await guardPg('store the webhook', () =>
      this.#pool.query(
        `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          v.id,
          v.owner,
          v.all_links,
          v.url,
          v.events,
          v.description,
          v.secret,
          v.paused,
          v.created_at,
          v.updated_at,
        ],
      ),
    );
  }

  async findWebhook(id: string): Promise<Webhook | null> {
    return guardPg('read the webhook', async () => {
      const { rows } = await this.#pool.query<WebhookRow>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1`,
        [id],
      );
      return rows[0] === undefined ? null : webhookFromRow(rows[0]);
    });
  }

  async listWebhooks(owner: string | null): Promise<readonly Webhook[]> {
    return guardPg('list webhooks', async () => {
      const { rows } = await this.#pool.query<WebhookRow>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE $1::text IS NULL OR owner = $1 ORDER BY id`,
        [owner],
      );
      return rows.map(webhookFromRow);
    });
  }

  async updateWebhook(webhook: Webhook): Promise<boolean> {
    const v = webhookValues(webhook, false);
    return guardPg('change the webhook', async () => {
      const { rowCount } = await this.#pool.query(
        `UPDATE webhooks SET url = $2, events = $3, description = $4, secret = $5, paused = $6,
           updated_at = $7 WHERE id = $1`,
        [v.id, v.url, v.events, v.description, v.secret, v.paused, v.updated_at],
      );
      return rowCount === 1;
    });
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return guardPg('delete the webhook', async () => {
      const { rowCount } = await this.#pool.query('DELETE FROM webhooks WHERE id = $1', [id]);
      return rowCount === 1;
    });
  }

  async fanOutPosition(source: string): Promise<string> {
    return guardPg('read the fan-out position', async () => {
      const { rows } = await this.#pool.query<{ position: string }>(
        'SELECT position FROM webhook_fanout WHERE source = $1',
        [source],
      );
      return rows[0]?.position ?? '';
    });
  }

  async fanOut(source: string, plan: (position: string) => Promise<FanOutPlan>): Promise<number> {
    return guardPg('fan out webhook events', () =>
      inTransaction(this.#pool, async (client) => {
        // The row exists before it is locked, so the first step of two instances waits too.
        await client.query(
          `INSERT INTO webhook_fanout (source, position) VALUES ($1, '') ON CONFLICT DO NOTHING`,
          [source],
        );
        const { rows } = await client.query<{ position: string }>(
          'SELECT position FROM webhook_fanout WHERE source = $1 FOR UPDATE',
          [source],
        );
        const planned = await plan(rows[0]?.position ?? '');
        const deliveries = planned.deliveries;
        if (deliveries.length > 0) {
          await client.query(
            `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS})
             SELECT id, webhook_id, message_id, event_type, body, 'pending', 0, created_at, NULL,
                    give_up_at, NULL, NULL, NULL, created_at
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
               AS t (id, webhook_id, message_id, event_type, body, created_at, give_up_at)`,
            [
              deliveries.map((d) => d.id),
              deliveries.map((d) => d.webhookId),
              deliveries.map((d) => d.messageId),
              deliveries.map((d) => d.eventType),
              deliveries.map((d) => d.body),
              deliveries.map((d) => d.createdAt),
              deliveries.map((d) => d.giveUpAt),
            ],
          );
        }
        await client.query('UPDATE webhook_fanout SET position = $2 WHERE source = $1', [
          source,
          planned.position,
        ]);
        return deliveries.length;
      }),
    );
  }

  async claimDueDeliveries(
    nowMs: number,
    leaseUntil: number,
    limit: number,
  ): Promise<readonly ClaimedDelivery[]> {
    return guardPg('claim webhook deliveries', async () => {
      const { rows } = await this.#pool.query<ClaimRow>(
        `WITH due AS (
           SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1
             AND (d.lease_until IS NULL OR d.lease_until <= $1) AND NOT w.paused
           ORDER BY d.next_attempt_at LIMIT $3
           FOR UPDATE OF d SKIP LOCKED)
         UPDATE webhook_deliveries d SET lease_until = $2
         FROM due, webhooks w WHERE d.id = due.id AND w.id = d.webhook_id
         RETURNING ${D_COLUMNS}, w.url, w.secret`,
        [nowMs, leaseUntil, limit],
      );
      return rows.map((row) => ({
        delivery: deliveryFromRow(row),
        url: row.url,
        secret: row.secret,
        leaseUntil,
      }));
    });
  }

  async recordAttempts(attempts: readonly RecordedAttempt[]): Promise<readonly boolean[]> {
    if (attempts.length === 0) return [];
    return guardPg('record the delivery attempts', async () => {
      const outcomes = attempts.map((attempt) => attempt.outcome);
      const { rows } = await this.#pool.query<{ id: string }>(
        `UPDATE webhook_deliveries d SET status = a.status, attempts = d.attempts + 1,
           next_attempt_at = a.next_attempt_at, lease_until = NULL,
           last_status_code = a.status_code, last_error = a.error,
           last_attempt_at = a.attempted_at
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::int[], $6::text[],
           $7::bigint[])
           AS a(id, lease_until, status, next_attempt_at, status_code, error, attempted_at)
         WHERE d.id = a.id AND d.lease_until = a.lease_until
         RETURNING d.id`,
        [
          attempts.map((attempt) => attempt.id),
          attempts.map((attempt) => attempt.leaseUntil),
          outcomes.map((outcome) => outcome.status),
          outcomes.map((outcome) => outcome.nextAttemptAt),
          outcomes.map((outcome) => outcome.statusCode),
          outcomes.map((outcome) => outcome.error),
          outcomes.map((outcome) => outcome.attemptedAt),
        ],
      );
      const recorded = new Set(rows.map((row) => row.id));
      return attempts.map((attempt) => recorded.has(attempt.id));
    });
  }

  async forgetFinishedDeliveries(
    status: FinishedStatus,
    beforeMs: number,
    limit: number,
  ): Promise<number> {
    return guardPg('forget finished deliveries', async () => {
      // By the per-status partial indexes of migrations/0019, oldest first: the status is
      // written into the statement, so the planner matches it to its index.
      const { rowCount } = await this.#pool.query(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
           WHERE status = '${status}' AND last_attempt_at < $1
           ORDER BY last_attempt_at LIMIT $2)`,
        [beforeMs, limit],
      );
      return rowCount ?? 0;
    });
  }

  async releaseLease(id: string, leaseUntil: number): Promise<void> {
    await guardPg('release the delivery', () =>
      this.#pool.query(
        'UPDATE webhook_deliveries SET lease_until = NULL WHERE id = $1 AND lease_until = $2',
        [id, leaseUntil],
      ),
    );
  }

  async listDeliveries(
    webhookId: string,
    page: { readonly before: string | null; readonly limit: number },
  ): Promise<readonly WebhookDelivery[]> {
    return guardPg('list webhook deliveries', async () => {
      const { rows } = await this.#pool.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE webhook_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
        [webhookId, page.before, page.limit],
      );
      return rows.map(deliveryFromRow);
    });
  }

  async findDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return guardPg('read the delivery', async () => {
      const { rows } = await this.#pool.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2`,
        [webhookId, deliveryId],
      );
      return rows[0] === undefined ? null : deliveryFromRow(rows[0]);
    });
  }

  async requeueDelivery(
    webhookId: string,
    deliveryId: string,
    nowMs: number,
    giveUpAt: number,
  ): Promise<WebhookDelivery | null> {
    return guardPg('retry the delivery', async () => {
      const { rows } = await this.#pool.query<DeliveryRow>(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, give_up_at = $4,
           lease_until = NULL
         WHERE webhook_id = $1 AND id = $2 RETURNING ${DELIVERY_COLUMNS}`,
        [webhookId, deliveryId, nowMs, giveUpAt],
      );
      return rows[0] === undefined ? null : deliveryFromRow(rows[0]);
    });
  }
}

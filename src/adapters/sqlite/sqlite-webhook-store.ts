import type Database from 'better-sqlite3';
import type { Webhook, WebhookDelivery } from '../../domain/webhook.js';
import type {
  ClaimedDelivery,
  FanOutPlan,
  NewDelivery,
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
import { guardSqlite } from './sqlite-errors.js';

type ClaimRow = DeliveryRow & { url: string; secret: string };

/**
 * Webhooks on the embedded store (migration 0019, ADR 0128). One writer: a fan-out step
 * stores its plan only if the position is still the one it planned from, and a claim is
 * one UPDATE … RETURNING, so no delivery is claimed twice.
 */
export class SqliteWebhookStore implements WebhookStore {
  readonly #insert: Database.Statement;
  readonly #byId: Database.Statement<[string], WebhookRow>;
  readonly #all: Database.Statement<[], WebhookRow>;
  readonly #byOwner: Database.Statement<[string], WebhookRow>;
  readonly #update: Database.Statement;
  readonly #delete: Database.Statement<[string]>;
  readonly #position: Database.Statement<[string], { position: string }>;
  readonly #storePlan: Database.Transaction<
    (source: string, from: string, plan: FanOutPlan) => number
  >;
  readonly #claim: Database.Statement<[{ now: number; lease: number; limit: number }], ClaimRow>;
  readonly #recordAll: Database.Transaction<(attempts: readonly RecordedAttempt[]) => boolean[]>;
  readonly #release: Database.Statement<[string, number]>;
  readonly #forgetFinished: Record<FinishedStatus, Database.Statement<[number, number]>>;
  readonly #deliveries: Database.Statement<[string, string, number], DeliveryRow>;
  readonly #delivery: Database.Statement<[string, string], DeliveryRow>;
  readonly #requeue: Database.Statement<
    [{ now: number; giveUpAt: number; webhookId: string; id: string }],
    DeliveryRow
  >;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES (@id, @owner, @all_links, @url, @events,
         @description, @secret, @paused, @created_at, @updated_at)`,
    );
    this.#byId = db.prepare(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`);
    this.#all = db.prepare(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id`);
    this.#byOwner = db.prepare(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner = ? ORDER BY id`,
    );
    this.#update = db.prepare(
      `UPDATE webhooks SET url = @url, events = @events, description = @description,
         secret = @secret, paused = @paused, updated_at = @updated_at WHERE id = @id`,
    );
    this.#delete = db.prepare('DELETE FROM webhooks WHERE id = ?');
    this.#position = db.prepare('SELECT position FROM webhook_fanout WHERE source = ?');
    const insertDelivery = db.prepare(
      `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES (@id, @webhookId, @messageId,
         @eventType, @body, 'pending', 0, @createdAt, NULL, @giveUpAt, NULL, NULL, NULL, @createdAt)`,
    );
    const setPosition = db.prepare(
      `INSERT INTO webhook_fanout (source, position) VALUES (?, ?)
       ON CONFLICT (source) DO UPDATE SET position = excluded.position`,
    );
    this.#storePlan = db.transaction((source: string, from: string, plan: FanOutPlan) => {
      // Someone else stored a step since this one read the position: theirs stands.
      if ((this.#position.get(source)?.position ?? '') !== from) return 0;
      for (const delivery of plan.deliveries) insertDelivery.run(delivery satisfies NewDelivery);
      setPosition.run(source, plan.position);
      return plan.deliveries.length;
    });
    this.#claim = db.prepare(
      `UPDATE webhook_deliveries SET lease_until = @lease
       WHERE id IN (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= @now
           AND (d.lease_until IS NULL OR d.lease_until <= @now) AND w.paused = 0
         ORDER BY d.next_attempt_at LIMIT @limit)
       RETURNING ${DELIVERY_COLUMNS},
         (SELECT url FROM webhooks w WHERE w.id = webhook_deliveries.webhook_id) AS url,
         (SELECT secret FROM webhooks w WHERE w.id = webhook_deliveries.webhook_id) AS secret`,
    );
    const record = db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1,
         next_attempt_at = @nextAttemptAt, lease_until = NULL, last_status_code = @statusCode,
         last_error = @error, last_attempt_at = @attemptedAt
       WHERE id = @id AND lease_until = @leaseUntil`,
    );
    // One transaction for the attempts that ended together: one commit, not one each.
    this.#recordAll = db.transaction((attempts: readonly RecordedAttempt[]) =>
      attempts.map(
        ({ id, leaseUntil, outcome }) => record.run({ id, leaseUntil, ...outcome }).changes === 1,
      ),
    );
    this.#release = db.prepare(
      'UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ? AND lease_until = ?',
    );
    // By the per-status indexes of migrations/0020, oldest first, a bounded batch.
    const forget = (status: FinishedStatus) =>
      db.prepare<[number, number]>(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status = '${status}' AND last_attempt_at < ?
           ORDER BY last_attempt_at LIMIT ?)`,
      );
    this.#forgetFinished = { delivered: forget('delivered'), failed: forget('failed') };
    this.#deliveries = db.prepare(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
       WHERE webhook_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    );
    this.#delivery = db.prepare(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? AND id = ?`,
    );
    this.#requeue = db.prepare(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @now, give_up_at = @giveUpAt,
         lease_until = NULL
       WHERE webhook_id = @webhookId AND id = @id RETURNING ${DELIVERY_COLUMNS}`,
    );
  }

  async insertWebhook(webhook: Webhook): Promise<void> {
    guardSqlite('store the webhook', () => this.#insert.run(webhookValues(webhook, true)));
  }

  async findWebhook(id: string): Promise<Webhook | null> {
    return guardSqlite('read the webhook', () => {
      const row = this.#byId.get(id);
      return row === undefined ? null : webhookFromRow(row);
    });
  }

  async listWebhooks(owner: string | null): Promise<readonly Webhook[]> {
    return guardSqlite('list webhooks', () =>
      (owner === null ? this.#all.all() : this.#byOwner.all(owner)).map(webhookFromRow),
    );
  }

  async updateWebhook(webhook: Webhook): Promise<boolean> {
    return guardSqlite(
      'change the webhook',
      () => this.#update.run(webhookValues(webhook, true)).changes === 1,
    );
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return guardSqlite('delete the webhook', () => this.#delete.run(id).changes === 1);
  }

  async fanOutPosition(source: string): Promise<string> {
    return guardSqlite(
      'read the fan-out position',
      () => this.#position.get(source)?.position ?? '',
    );
  }

  async fanOut(source: string, plan: (position: string) => Promise<FanOutPlan>): Promise<number> {
    const from = await this.fanOutPosition(source);
    const planned = await plan(from);
    if (planned.position === from && planned.deliveries.length === 0) return 0;
    return guardSqlite('store the fan-out', () => this.#storePlan.immediate(source, from, planned));
  }

  async claimDueDeliveries(
    nowMs: number,
    leaseUntil: number,
    limit: number,
  ): Promise<readonly ClaimedDelivery[]> {
    return guardSqlite('claim webhook deliveries', () =>
      this.#claim.all({ now: nowMs, lease: leaseUntil, limit }).map((row) => ({
        delivery: deliveryFromRow(row),
        url: row.url,
        secret: row.secret,
        leaseUntil,
      })),
    );
  }

  async recordAttempts(attempts: readonly RecordedAttempt[]): Promise<readonly boolean[]> {
    return guardSqlite('record the delivery attempts', () => this.#recordAll(attempts));
  }

  async releaseLease(id: string, leaseUntil: number): Promise<void> {
    guardSqlite('release the delivery', () => this.#release.run(id, leaseUntil));
  }

  async forgetFinishedDeliveries(
    status: FinishedStatus,
    beforeMs: number,
    limit: number,
  ): Promise<number> {
    return guardSqlite(
      'forget finished deliveries',
      () => this.#forgetFinished[status].run(beforeMs, limit).changes,
    );
  }

  async listDeliveries(
    webhookId: string,
    page: { readonly before: string | null; readonly limit: number },
  ): Promise<readonly WebhookDelivery[]> {
    return guardSqlite('list webhook deliveries', () =>
      this.#deliveries.all(webhookId, page.before ?? '\u{10FFFF}', page.limit).map(deliveryFromRow),
    );
  }

  async findDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return guardSqlite('read the delivery', () => {
      const row = this.#delivery.get(webhookId, deliveryId);
      return row === undefined ? null : deliveryFromRow(row);
    });
  }

  async requeueDelivery(
    webhookId: string,
    deliveryId: string,
    nowMs: number,
    giveUpAt: number,
  ): Promise<WebhookDelivery | null> {
    return guardSqlite('retry the delivery', () => {
      const row = this.#requeue.get({ now: nowMs, giveUpAt, webhookId, id: deliveryId });
      return row === undefined ? null : deliveryFromRow(row);
    });
  }
}

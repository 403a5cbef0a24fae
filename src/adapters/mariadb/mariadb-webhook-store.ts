import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Webhook, WebhookDelivery } from '../../domain/webhook.js';
import type {
  ClaimedDelivery,
  FanOutPlan,
  FinishedStatus,
  NewDelivery,
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
import { guardMariaDb } from './mariadb-errors.js';
import { inTransaction } from './mariadb-transaction.js';

type WebhookRecord = WebhookRow & RowDataPacket;
type DeliveryRecord = DeliveryRow & RowDataPacket;
type ClaimRecord = DeliveryRecord & { url: string; secret: string };

const D_COLUMNS = DELIVERY_COLUMNS.split(', ')
  .map((column) => `d.${column}`)
  .join(', ');

/** Deliveries a fan-out step inserts per statement: bodies are whole events, keep packets small. */
const DELIVERIES_PER_INSERT = 200;

/**
 * Webhooks on MariaDB (ADR 0128, ADR 0140). A fan-out step holds its source's position row
 * FOR UPDATE for the whole step, so instances on one node take turns; a claim takes due
 * rows FOR UPDATE SKIP LOCKED and leases them, so each is claimed by one instance. On
 * Galera those locks are a node's own: two nodes' steps (or claims of one delivery) both
 * write the same row, the later COMMIT fails certification (1213), and inTransaction runs
 * it again from its first read, which then sees what won.
 */
export class MariaDbWebhookStore implements WebhookStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async insertWebhook(webhook: Webhook): Promise<void> {
    const v = webhookValues(webhook, false);
    await guardMariaDb('store the webhook', () =>
      this.#pool.query(
        `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    return guardMariaDb('read the webhook', async () => {
      const [rows] = await this.#pool.query<WebhookRecord[]>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`,
        [id],
      );
      return rows[0] === undefined ? null : webhookFromRow(rows[0]);
    });
  }

  async listWebhooks(owner: string | null): Promise<readonly Webhook[]> {
    return guardMariaDb('list webhooks', async () => {
      const [rows] = await this.#pool.query<WebhookRecord[]>(
        owner === null
          ? `SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id`
          : `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner = ? ORDER BY id`,
        owner === null ? [] : [owner],
      );
      return rows.map(webhookFromRow);
    });
  }

  async updateWebhook(webhook: Webhook): Promise<boolean> {
    const v = webhookValues(webhook, false);
    return guardMariaDb('change the webhook', async () => {
      // affectedRows counts the rows matched (mysql2 asks for CLIENT_FOUND_ROWS), so a
      // change to the values already stored is still a webhook found.
      const [result] = await this.#pool.query<ResultSetHeader>(
        `UPDATE webhooks SET url = ?, events = ?, description = ?, secret = ?, paused = ?,
           updated_at = ? WHERE id = ?`,
        [v.url, v.events, v.description, v.secret, v.paused, v.updated_at, v.id],
      );
      return result.affectedRows === 1;
    });
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return guardMariaDb('delete the webhook', async () => {
      // Its deliveries go with it (ON DELETE CASCADE).
      const [result] = await this.#pool.query<ResultSetHeader>(
        'DELETE FROM webhooks WHERE id = ?',
        [id],
      );
      return result.affectedRows === 1;
    });
  }

  async fanOutPosition(source: string): Promise<string> {
    return guardMariaDb('read the fan-out position', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & { position: string })[]>(
        'SELECT `position` FROM webhook_fanout WHERE source = ?',
        [source],
      );
      return rows[0]?.position ?? '';
    });
  }

  async fanOut(source: string, plan: (position: string) => Promise<FanOutPlan>): Promise<number> {
    return guardMariaDb('fan out webhook events', () =>
      inTransaction(this.#pool, async (connection) => {
        const position = await lockFanOutPosition(connection, source);
        const planned = await plan(position);
        for (let start = 0; start < planned.deliveries.length; start += DELIVERIES_PER_INSERT) {
          await insertDeliveries(
            connection,
            planned.deliveries.slice(start, start + DELIVERIES_PER_INSERT),
          );
        }
        await connection.query('UPDATE webhook_fanout SET `position` = ? WHERE source = ?', [
          planned.position,
          source,
        ]);
        return planned.deliveries.length;
      }),
    );
  }

  async claimDueDeliveries(
    nowMs: number,
    leaseUntil: number,
    limit: number,
  ): Promise<readonly ClaimedDelivery[]> {
    return guardMariaDb('claim webhook deliveries', () =>
      inTransaction(this.#pool, async (connection) => {
        // Only the deliveries' rows are locked (MariaDB has no FOR UPDATE OF), and the paused
        // test is a NOT EXISTS, run as a materialized subquery that the locking read leaves
        // unlocked. With IN (SELECT …) instead, MariaDB may plan a semi-join through a
        // temporary table, and such a plan was seen to claim nothing under SKIP LOCKED while
        // another claim held one delivery of the webhook.
        const [due] = await connection.query<(RowDataPacket & { id: string })[]>(
          `SELECT d.id FROM webhook_deliveries d
           WHERE d.status = 'pending' AND d.next_attempt_at <= ?
             AND (d.lease_until IS NULL OR d.lease_until <= ?)
             AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.paused)
           ORDER BY d.next_attempt_at LIMIT ?
           FOR UPDATE SKIP LOCKED`,
          [nowMs, nowMs, limit],
        );
        if (due.length === 0) return [];
        const ids = due.map((row) => row.id);
        await connection.query('UPDATE webhook_deliveries SET lease_until = ? WHERE id IN (?)', [
          leaseUntil,
          ids,
        ]);
        const [rows] = await connection.query<ClaimRecord[]>(
          `SELECT ${D_COLUMNS}, w.url, w.secret
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id IN (?) ORDER BY d.next_attempt_at, d.id`,
          [ids],
        );
        return rows.map((row) => ({
          delivery: deliveryFromRow(row),
          url: row.url,
          secret: row.secret,
          leaseUntil,
        }));
      }),
    );
  }

  async recordAttempts(attempts: readonly RecordedAttempt[]): Promise<readonly boolean[]> {
    if (attempts.length === 0) return [];
    return guardMariaDb('record the delivery attempts', () =>
      inTransaction(this.#pool, async (connection) => {
        // One UPDATE each (MariaDB has no UPDATE ... RETURNING to tell which of a joined
        // batch matched its lease): a batch is one tick's attempts, and one transaction.
        const recorded: boolean[] = [];
        for (const { id, leaseUntil, outcome } of attempts) {
          const [result] = await connection.query<ResultSetHeader>(
            `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1,
               next_attempt_at = ?, lease_until = NULL, last_status_code = ?, last_error = ?,
               last_attempt_at = ?
             WHERE id = ? AND lease_until = ?`,
            [
              outcome.status,
              outcome.nextAttemptAt,
              outcome.statusCode,
              outcome.error,
              outcome.attemptedAt,
              id,
              leaseUntil,
            ],
          );
          recorded.push(result.affectedRows === 1);
        }
        return recorded;
      }),
    );
  }

  async forgetFinishedDeliveries(
    status: FinishedStatus,
    beforeMs: number,
    limit: number,
  ): Promise<number> {
    return guardMariaDb('forget finished deliveries', async () => {
      // Oldest first along the index (status, last_attempt_at).
      const [result] = await this.#pool.query<ResultSetHeader>(
        `DELETE FROM webhook_deliveries WHERE status = ? AND last_attempt_at < ?
         ORDER BY last_attempt_at LIMIT ?`,
        [status, beforeMs, limit],
      );
      return result.affectedRows;
    });
  }

  async releaseLease(id: string, leaseUntil: number): Promise<void> {
    await guardMariaDb('release the delivery', () =>
      this.#pool.query(
        'UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ? AND lease_until = ?',
        [id, leaseUntil],
      ),
    );
  }

  async listDeliveries(
    webhookId: string,
    page: { readonly before: string | null; readonly limit: number },
  ): Promise<readonly WebhookDelivery[]> {
    return guardMariaDb('list webhook deliveries', async () => {
      const [rows] = await this.#pool.query<DeliveryRecord[]>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE webhook_id = ? ${page.before === null ? '' : 'AND id < ?'}
         ORDER BY id DESC LIMIT ?`,
        page.before === null ? [webhookId, page.limit] : [webhookId, page.before, page.limit],
      );
      return rows.map(deliveryFromRow);
    });
  }

  async findDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return guardMariaDb('read the delivery', async () => {
      const [rows] = await this.#pool.query<DeliveryRecord[]>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? AND id = ?`,
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
    return guardMariaDb('retry the delivery', () =>
      inTransaction(this.#pool, async (connection) => {
        // No UPDATE ... RETURNING: the row is read back in the same transaction.
        const [result] = await connection.query<ResultSetHeader>(
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, give_up_at = ?,
             lease_until = NULL
           WHERE webhook_id = ? AND id = ?`,
          [nowMs, giveUpAt, webhookId, deliveryId],
        );
        if (result.affectedRows === 0) return null;
        const [rows] = await connection.query<DeliveryRecord[]>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`,
          [deliveryId],
        );
        return rows[0] === undefined ? null : deliveryFromRow(rows[0]);
      }),
    );
  }
}

/**
 * `source`'s position, its row locked to the end of the transaction. Locked before it is
 * made when it exists (the usual case): an INSERT IGNORE of a row that exists would take a
 * shared lock first, and two steps upgrading theirs would deadlock. A first step inserts
 * it: a second first step waits on that row, then reads it.
 */
async function lockFanOutPosition(connection: PoolConnection, source: string): Promise<string> {
  const locked = async () => {
    const [rows] = await connection.query<(RowDataPacket & { position: string })[]>(
      'SELECT `position` FROM webhook_fanout WHERE source = ? FOR UPDATE',
      [source],
    );
    return rows[0]?.position;
  };
  const existing = await locked();
  if (existing !== undefined) return existing;
  await connection.query("INSERT IGNORE INTO webhook_fanout (source, `position`) VALUES (?, '')", [
    source,
  ]);
  return (await locked()) ?? '';
}

async function insertDeliveries(
  connection: PoolConnection,
  deliveries: readonly NewDelivery[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await connection.query(`INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES ?`, [
    deliveries.map((d) => [
      d.id,
      d.webhookId,
      d.messageId,
      d.eventType,
      d.body,
      'pending',
      0,
      d.createdAt,
      null,
      d.giveUpAt,
      null,
      null,
      null,
      d.createdAt,
    ]),
  ]);
}

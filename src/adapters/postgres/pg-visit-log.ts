import type pg from 'pg';
import type { BrowserClass, DeviceClass, OsClass } from '../../domain/click-event.js';
import type { StoredVisit, VisitLog, VisitPageQuery } from '../../ports/visit-log.js';
import { rowsForPage, visitsOfRows } from '../sql/visit-rows.js';
import { guardPg } from './pg-errors.js';
import { inTransaction } from './pg-transaction.js';

const DAY_MS = 86_400_000;
/** Days made ahead of today by each `prepare` (the sweeper's), today included. */
const DAYS_AHEAD = 4;
/** The lock partition changes take turns under ("hopv"). */
const PARTITION_LOCK = 0x686f7076;
const PARTITION_NAME = /^visits_d(\d+)$/;

interface VisitRow {
  id: number;
  link_id: string;
  at: number;
  country: string | null;
  city: string | null;
  device: DeviceClass;
  os: OsClass;
  browser: BrowserClass;
  language: string | null;
  referrer_host: string | null;
  bot: boolean;
  clicks: number;
}

/**
 * The visit log on PostgreSQL (migrations/0015): partitioned by UTC day on `at`, one
 * partition `visits_d<day number>` per day, made ahead by `prepare`, dropped whole by
 * `forgetBefore`. Rows of a day without a partition wait in the DEFAULT partition: a
 * partition made later takes them over (ADR 0125).
 */
export class PgVisitLog implements VisitLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async page(query: VisitPageQuery): Promise<readonly StoredVisit[]> {
    return guardPg('read visits', async () => {
      const { linkId, fromMs, toMs, after, limit } = query;
      const result = await this.#pool.query<VisitRow>(
        `SELECT id::float8 AS id, link_id, at::float8 AS at, country, city, device, os, browser,
           language, referrer_host, bot, clicks
         FROM visits WHERE link_id = $1 AND at >= $2 AND at < $3
           AND ($4::bigint IS NULL OR (at, id) <= ($4::bigint, $5::bigint))
         ORDER BY at DESC, id DESC LIMIT $6`,
        [linkId, fromMs, toMs, after?.at ?? null, after?.id ?? null, rowsForPage(after, limit)],
      );
      const rows = result.rows.map((row) => ({
        id: row.id,
        visit: {
          linkId: row.link_id,
          at: row.at,
          country: row.country,
          city: row.city,
          device: row.device,
          os: row.os,
          browser: row.browser,
          language: row.language,
          referrerHost: row.referrer_host,
          bot: row.bot,
        },
        clicks: row.clicks,
      }));
      return visitsOfRows(rows, after, limit);
    });
  }

  /**
   * Drops every day partition wholly older than `olderThanMs` (at most `limit` of them),
   * then deletes up to `limit` older rows that wait in the DEFAULT partition.
   */
  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('forget visits', () =>
      inTransaction(this.#pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
        let removed = 0;
        for (const day of await partitionDays(client)) {
          if (removed >= limit) break;
          if ((day + 1) * DAY_MS > olderThanMs) continue;
          await client.query(`DROP TABLE ${partitionName(day)}`);
          removed++;
        }
        const deleted = await client.query(
          `DELETE FROM visits_default WHERE id IN
             (SELECT id FROM visits_default WHERE at < $1 ORDER BY at LIMIT $2)`,
          [olderThanMs, limit],
        );
        return removed + (deleted.rowCount ?? 0);
      }),
    );
  }

  /**
   * Makes the partitions of today and the next days. Rows of such a day already in the
   * DEFAULT partition (written before it existed) are moved into it in the same transaction:
   * PostgreSQL refuses a new partition whose range the DEFAULT partition holds rows of.
   */
  async prepare(nowMs: number): Promise<void> {
    await guardPg('make visit partitions', () =>
      inTransaction(this.#pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
        const existing = new Set(await partitionDays(client));
        const today = Math.floor(nowMs / DAY_MS);
        for (let day = today; day < today + DAYS_AHEAD; day++) {
          if (existing.has(day)) continue;
          await makePartition(client, day);
        }
      }),
    );
  }
}

async function makePartition(client: pg.PoolClient, day: number): Promise<void> {
  const from = day * DAY_MS;
  const to = from + DAY_MS;
  await client.query('CREATE TEMP TABLE visits_moving (LIKE visits) ON COMMIT DROP');
  await client.query(
    `WITH moved AS (DELETE FROM visits_default WHERE at >= $1 AND at < $2 RETURNING *)
     INSERT INTO visits_moving SELECT * FROM moved`,
    [from, to],
  );
  // DDL takes no parameters: the bounds are whole numbers made here.
  await client.query(
    `CREATE TABLE ${partitionName(day)} PARTITION OF visits FOR VALUES FROM (${from}) TO (${to})`,
  );
  await client.query('INSERT INTO visits OVERRIDING SYSTEM VALUE SELECT * FROM visits_moving');
  await client.query('DROP TABLE visits_moving');
}

/** The day numbers of the partitions there are (the DEFAULT one aside). */
async function partitionDays(client: pg.PoolClient): Promise<number[]> {
  const result = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'visits'::regclass`,
  );
  const days: number[] = [];
  for (const { name } of result.rows) {
    const match = PARTITION_NAME.exec(name);
    if (match !== null) days.push(Number(match[1]));
  }
  return days.sort((a, b) => a - b);
}

function partitionName(day: number): string {
  if (!Number.isSafeInteger(day) || day < 0) throw new RangeError(`not a day: ${day}`);
  return `visits_d${day}`;
}

import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import type {
  ClickAnalyticsQueries,
  ClicksAcrossLinks,
  LinkSelection,
} from '../../ports/click-analytics-queries.js';
import {
  readSums,
  withNamedLinks,
  type BucketSumRow,
  type NamedLinkRow,
} from '../sql/click-analytics-sql.js';
import { agentSumsSql, bucketSumsSql, chosenLinksSql } from './mariadb-click-analytics-sql.js';
import { guardMariaDb } from './mariadb-errors.js';

type Rows<T> = (T & RowDataPacket)[];

/** `GET /v1/analytics` on MariaDB (ADR 0126, ADR 0140): links and buckets in one database. */
export class MariaDbClickAnalyticsQueries implements ClickAnalyticsQueries {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async summarizeLinks(
    selection: LinkSelection,
    fromHour: number,
    toHour: number,
    limits: { readonly topLinks: number; readonly maxValues: number },
  ): Promise<ClicksAcrossLinks> {
    const range = { from: fromHour, to: toHour };
    const chosen = chosenLinksSql(selection, { escape: (value) => this.#pool.escape(value) });
    const buckets = bucketSumsSql(chosen, range, {
      top: limits.topLinks,
      values: limits.maxValues,
    });
    const agents = agentSumsSql(chosen, range);
    return guardMariaDb('sum clicks across links', () =>
      inReadSnapshot(this.#pool, async (connection) => {
        const [bucketRows] = await connection.query<Rows<BucketSumRow>>(buckets);
        const [agentRows] = await connection.query<Rows<{ value: string; clicks: number }>>(agents);
        const sums = readSums(bucketRows, agentRows, limits.maxValues);
        const ids = sums.top.map((link) => link.linkId);
        if (ids.length === 0) return withNamedLinks(sums, []);
        const [named] = await connection.query<Rows<NamedLinkRow>>(
          'SELECT id, code, domain, title FROM links WHERE id IN (?)',
          [ids],
        );
        return withNamedLinks(sums, named);
      }),
    );
  }
}

/**
 * Runs `read` in a read-only REPEATABLE READ transaction begun WITH CONSISTENT SNAPSHOT:
 * both sums and the names see one snapshot, as PostgreSQL's REPEATABLE READ READ ONLY
 * gives it. The pool's sessions are READ COMMITTED; SET TRANSACTION changes the next
 * transaction only. A connection that failed on the way is destroyed rather than handed
 * back with a transaction characteristic still set.
 */
async function inReadSnapshot<T>(
  pool: Pool,
  read: (connection: PoolConnection) => Promise<T>,
): Promise<T> {
  const connection = await pool.getConnection();
  try {
    await connection.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const result = await read(connection);
    await connection.query('COMMIT');
    connection.release();
    return result;
  } catch (error) {
    connection.destroy();
    throw error;
  }
}

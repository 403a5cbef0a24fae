import pg from 'pg';
import { PeerSourceError } from './peer-rows.js';
import { KUTT_LINK_COLUMNS, type KuttLinkRow, type KuttTables } from './kutt-link-rows.js';
import { driverMessage, redactedUrl } from './peer-values.js';

/** 42P01: undefined_table. */
const UNDEFINED_TABLE = '42P01';

/**
 * Kutt's tables on PostgreSQL, found by the connection's search_path (a schema other than
 * public: `?options=-c%20search_path%3Dkutt`, as libpq takes it).
 */
export async function openKuttPostgres(url: string): Promise<KuttTables> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A connection lost while reading is reported by the query that fails, not thrown here.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new PeerSourceError(
      `cannot reach the Kutt database at ${redactedUrl(url)}: ${driverMessage(error)}`,
    );
  }
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
    try {
      return (await client.query<R>(sql, values)).rows;
    } catch (error) {
      if ((error as { code?: string }).code === UNDEFINED_TABLE) {
        throw new PeerSourceError(
          `the Kutt database at ${redactedUrl(url)} has no links or domains table (${driverMessage(error)})`,
        );
      }
      throw error;
    }
  };
  try {
    await query('SELECT 1 FROM links, domains LIMIT 0');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    count: async () =>
      Number((await query<{ n: string }>('SELECT COUNT(*) AS n FROM links'))[0]?.n),
    page: (afterId, limit) =>
      query<KuttLinkRow>(
        `SELECT ${KUTT_LINK_COLUMNS} FROM links l LEFT JOIN domains d ON d.id = l.domain_id
         WHERE l.id > $1 ORDER BY l.id LIMIT $2`,
        [afterId, limit],
      ),
    close: () => client.end().catch(() => undefined),
  };
}

import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import type { PeerRow } from '../../domain/peer-link.js';
import { PeerSourceError, type PeerRows } from './peer-rows.js';
import { clickCount, driverMessage, epochMs, redactedUrl, textOrNull } from './peer-values.js';

export interface YourlsOptions {
  /** YOURLS_DB_PREFIX of the install's config.php; `yourls_` unless it was changed. */
  readonly tablePrefix: string;
  /** Rows a query reads. */
  readonly pageSize?: number;
}

const DEFAULT_PAGE_SIZE = 1000;
/** A table name is spliced into SQL (it cannot be a parameter): letters, digits, _ and $. */
const TABLE_PREFIX = /^[A-Za-z0-9_$]{0,50}$/;

interface YourlsUrlRow extends RowDataPacket {
  keyword: string;
  url: string;
  title: string | null;
  timestamp: string | null;
  clicks: number | string;
}

/**
 * Reads YOURLS's `<prefix>url` table (includes/functions-install.php): one link a keyword,
 * in keyword order, a page a query, so a large table is never held at once. The keyword
 * column is utf8mb4_bin: `a`, `A` and `aa` are three links, and the pages' keyset (keyword >
 * the last one) compares as the primary key sorts.
 *
 * `timestamp` is read as the text the server prints in its default session time zone, the
 * one YOURLS's own connection writes and reads it in, and that text is taken as UTC: YOURLS
 * sets PHP's zone to UTC and writes `date('Y-m-d H:i:s')` (Config/Init.php, ADR 0137).
 */
export async function readYourlsDatabase(url: string, options: YourlsOptions): Promise<PeerRows> {
  if (!TABLE_PREFIX.test(options.tablePrefix)) {
    throw new PeerSourceError(
      `table prefix "${options.tablePrefix}" is not a YOURLS prefix (letters, digits and _)`,
    );
  }
  const table = `${options.tablePrefix}url`;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const connection = await connect(url);
  let total: number;
  try {
    const [counted] = await connection.query<RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM \`${table}\``,
    );
    total = Number(counted[0]?.['n'] ?? 0);
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw new PeerSourceError(describeQueryError(error, table, url));
  }
  let done = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await connection.end().catch(() => undefined);
  };

  async function* rows(): AsyncGenerator<PeerRow> {
    try {
      let after: string | null = null;
      for (;;) {
        const [page]: [YourlsUrlRow[], unknown] = await connection.query<YourlsUrlRow[]>(
          `SELECT keyword, url, title, \`timestamp\`, clicks FROM \`${table}\`` +
            (after === null ? '' : ' WHERE keyword > ?') +
            ' ORDER BY keyword LIMIT ?',
          after === null ? [pageSize] : [after, pageSize],
        );
        for (const row of page) {
          done++;
          yield yourlsRow(row);
        }
        const last: YourlsUrlRow | undefined = page.at(-1);
        if (last === undefined || page.length < pageSize) return;
        after = last.keyword;
      }
    } finally {
      await close();
    }
  }

  const iterator = rows();
  return {
    [Symbol.asyncIterator]: () => iterator,
    progress: () => ({ done, total }),
    close: async () => {
      await iterator.return(undefined);
      await close();
    },
  };
}

function yourlsRow(row: YourlsUrlRow): PeerRow {
  const source = `keyword ${row.keyword}`;
  if (row.keyword === '') return { source, problem: 'an empty keyword' };
  const destination = textOrNull(row.url);
  if (destination === null) return { source, problem: 'no url' };
  const createdAt = epochMs(row.timestamp);
  if (createdAt === null) {
    return { source, problem: `timestamp ${String(row.timestamp)} is not a time` };
  }
  const clicks = clickCount(row.clicks);
  if (clicks === null) {
    return { source, problem: `clicks ${String(row.clicks)} is not a whole number` };
  }
  return {
    source,
    code: row.keyword,
    domain: null,
    destination,
    title: textOrNull(row.title),
    tags: [],
    createdAt: createdAt ?? null,
    expiresAt: null,
    state: 'active',
    clicks,
    passwordHash: null,
    // yourls_redirect_shorturl answers 301.
    statusCode: 301,
  };
}

async function connect(url: string): Promise<Connection> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PeerSourceError(
      `--from ${redactedUrl(url)} is not a URL such as mysql://user:password@host/yourls`,
    );
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new PeerSourceError(
      `--from ${redactedUrl(url)}: a YOURLS database is read from a mysql:// URL`,
    );
  }
  if (parsed.pathname.replace(/^\//, '') === '') {
    throw new PeerSourceError(`--from ${redactedUrl(url)} names no database (mysql://host/yourls)`);
  }
  parsed.protocol = 'mysql:';
  try {
    return await createConnection({
      uri: parsed.toString(),
      // Times come back as the text the server prints: see readYourlsDatabase.
      dateStrings: true,
      supportBigNumbers: true,
      charset: 'utf8mb4',
      connectTimeout: 10_000,
    });
  } catch (error) {
    throw new PeerSourceError(
      `cannot reach the YOURLS database at ${redactedUrl(url)}: ${driverMessage(error)}`,
    );
  }
}

function describeQueryError(error: unknown, table: string, url: string): string {
  if ((error as { code?: string }).code === 'ER_NO_SUCH_TABLE') {
    return `the YOURLS database at ${redactedUrl(url)} has no table ${table} (is --table-prefix right?)`;
  }
  return `cannot read ${table} at ${redactedUrl(url)}: ${driverMessage(error)}`;
}

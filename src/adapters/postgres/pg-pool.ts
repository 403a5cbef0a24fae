import pg from 'pg';

/** How much longer than its statement timeout the client waits for an answer. */
const QUERY_TIMEOUT_MARGIN_MS = 500;

/** bigint (int8): epoch milliseconds and counts, all well inside 2^53. */
const INT8_OID = 20;

export interface PgPoolOptions {
  readonly url: string;
  /** Every connection's search_path: hop's tables live in this schema. */
  readonly schema: string;
  readonly maxConnections: number;
  /** Server-side limit of each statement (`statement_timeout`); 0 for none. */
  readonly statementTimeoutMs: number;
  /** How long a query waits for a free (or new) connection before it fails. */
  readonly connectTimeoutMs: number;
  /** Called for errors of idle connections (a server restart): logged, never thrown. */
  readonly onIdleError: (error: Error) => void;
  readonly applicationName: string;
}

type TypeParser = (oid: number, format?: 'text' | 'binary') => (value: string) => unknown;
const builtInParser = pg.types.getTypeParser as unknown as TypeParser;

/** Every type as pg parses it, but int8 as a number instead of a string. */
const types = {
  getTypeParser: ((oid, format) =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : builtInParser(oid, format)) as TypeParser,
};

/**
 * A pool of connections to one server. An idle connection the server drops (restart,
 * failover) emits an error on the pool; without a listener that error would end the
 * process, so it is reported and the pool opens a new connection on next use.
 */
export function openPgPool(options: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Statement timeouts are set at connect, not per statement: no extra round trip.
    options: `-c search_path=${options.schema} -c statement_timeout=${options.statementTimeoutMs}`,
    // statement_timeout is the server's: a server that stops answering (frozen, cut off)
    // never sends its error. The client gives up a little later, and the pool drops that
    // connection. Keep-alive notices a dead peer on idle connections too.
    query_timeout:
      options.statementTimeoutMs > 0 ? options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS : 0,
    keepAlive: true,
    application_name: options.applicationName,
    types,
  });
  pool.on('error', options.onIdleError);
  // The pool listens to a connection only while it is idle, a query only while it runs: a
  // connection the server drops while checked out between two statements (PostgreSQL
  // stopping: it ended the integrations thread, ADR 0153) would emit its error to
  // no one, and throw. Listened to for its whole life, it is only no longer queryable: its
  // next statement fails, and the pool drops it on release.
  pool.on('connect', (client) => {
    client.on('error', noticedByItsNextStatement);
  });
  return pool;
}

function noticedByItsNextStatement(): void {}

/**
 * One connection without statement or client timeouts, for migrations: building an index
 * on a large table may take minutes, and must not be cut off half-way by the limits that
 * protect requests. The caller ends it.
 */
export async function connectForMigrations(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'hop-migrate', types });
  await client.connect();
  // Lost between two migration statements: the next one fails, and so does the start, with
  // its one line; unheard, the error would be thrown from the socket's event instead.
  client.on('error', noticedByItsNextStatement);
  return client;
}

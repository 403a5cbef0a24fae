import {
  createConnection,
  createPool,
  type Connection,
  type Pool,
  type PoolOptions,
} from 'mysql2/promise';

export interface MariaDbPoolOptions {
  /** mysql://user:password@host:port/database (mariadb:// is read the same). */
  readonly url: string;
  readonly maxConnections: number;
  /** Server-side limit of each statement (`max_statement_time`); 0 for none. */
  readonly statementTimeoutMs: number;
  /** How long opening a connection may take before the query fails. */
  readonly connectTimeoutMs: number;
  /**
   * Reads allowed on a Galera node that is not in the primary component (`wsrep_dirty_reads`):
   * the redirect's pool, so a region cut off from the others still serves what it holds.
   */
  readonly dirtyReads?: boolean;
  /** Called for errors of idle connections (a server restart): logged, never thrown. */
  readonly onIdleError: (error: Error) => void;
}

/**
 * Values as hop's rows want them: DECIMAL (what SUM and COUNT of BIGINT give) as a number,
 * BOOLEAN (TINYINT(1)) as a boolean. BIGINT is already a number (no supportBigNumbers):
 * epoch milliseconds and counts are all well inside 2^53.
 */
const typeCast: NonNullable<PoolOptions['typeCast']> = (field, next) => {
  if (field.type === 'NEWDECIMAL' || field.type === 'DECIMAL') {
    const text = field.string();
    return text === null ? null : Number(text);
  }
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string();
    return text === null ? null : text !== '0';
  }
  return next();
};

/** The same URL with the driver's own scheme (mysql2 reads mysql:// only). */
function driverUrl(url: string): string {
  return url.replace(/^mariadb:/, 'mysql:');
}

/** The database a URL names (its path), which hop creates if missing. */
export function databaseOf(url: string): string {
  const name = decodeURIComponent(new URL(driverUrl(url)).pathname.slice(1));
  if (!/^[A-Za-z0-9_$]{1,64}$/.test(name)) {
    throw new RangeError(`HOP_DATABASE_URL must name a database (letters, digits, _): "${name}"`);
  }
  return name;
}

/**
 * Settings of every session: UTC (no time is stored as DATETIME, but NOW() and friends
 * should agree everywhere), strict mode (a value that does not fit is an error, never
 * truncated), and the statement limit. MariaDB 10.11 has no `transaction_isolation`
 * variable (11.1 added it), so the isolation level is a statement of its own.
 */
function sessionSettings(options: MariaDbPoolOptions): readonly string[] {
  const settings = [
    "time_zone = '+00:00'",
    "sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ENGINE_SUBSTITUTION,ERROR_FOR_DIVISION_BY_ZERO'",
    `max_statement_time = ${(options.statementTimeoutMs / 1000).toFixed(3)}`,
  ];
  if (options.dirtyReads === true) settings.push('wsrep_dirty_reads = ON');
  return [
    `SET SESSION ${settings.join(', ')}`,
    // As on PostgreSQL: each statement sees what committed before it, so a conditional
    // insert's loser reads the winner.
    'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
  ];
}

/**
 * A pool of connections to one server, each set up by sessionSettings before its first
 * query. An idle connection the server drops (restart, failover) is reported, and the pool
 * opens a new one on next use.
 */
export function openMariaDbPool(options: MariaDbPoolOptions): Pool {
  const config: PoolOptions = {
    uri: driverUrl(options.url),
    connectionLimit: options.maxConnections,
    connectTimeout: options.connectTimeoutMs,
    enableKeepAlive: true,
    idleTimeout: 30_000,
    maxIdle: options.maxConnections,
    charset: 'utf8mb4_bin',
    typeCast,
    // JSON columns come back as their text (MariaDB marks them JSON in its extended
    // metadata, which mysql2 would otherwise parse): rows are decoded in one place each.
    jsonStrings: true,
    // Statements are sent as text with their values escaped by the driver: no prepare
    // round trip, and no server-side statement cache to outgrow.
    namedPlaceholders: false,
  };
  const pool = createPool(config);
  const settings = sessionSettings(options);
  // Run on the connection's own command queue, ahead of the query that made it.
  pool.pool.on('connection', (connection) => {
    for (const statement of settings) {
      connection.query(statement, (error: Error | null) => {
        if (error !== null) options.onIdleError(error);
      });
    }
    connection.on('error', options.onIdleError);
  });
  return pool;
}

/**
 * One connection without statement limits, for migrations (many statements a file), after
 * the URL's database is created if missing. The caller ends it.
 */
export async function connectForMigrations(url: string): Promise<Connection> {
  const parsed = new URL(driverUrl(url));
  const database = databaseOf(url);
  parsed.pathname = '/';
  const server = await createConnection({ uri: parsed.toString(), charset: 'utf8mb4_bin' });
  try {
    await server.query(
      `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    );
  } finally {
    await server.end();
  }
  const connection = await createConnection({
    uri: driverUrl(url),
    charset: 'utf8mb4_bin',
    multipleStatements: true,
    typeCast,
    jsonStrings: true,
  });
  await connection.query("SET SESSION time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES'");
  return connection;
}

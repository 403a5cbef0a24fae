import type { MariaDbStore } from '../adapters/mariadb/mariadb-store.js';
import type { PgStore } from '../adapters/postgres/pg-store.js';
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';
import type { Logger } from '../observability/logger.js';
import { prepareDataDir } from './data-dir.js';

/** How often the WAL is copied back into the database file while serving. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** How long a query waits for a database connection before the request fails (503). */
const CONNECT_TIMEOUT_MS = 2000;

/**
 * The store chosen by config: PostgreSQL or MariaDB when HOP_DATABASE_URL is set (by its
 * scheme), else SQLite files.
 */
export type OpenedStore =
  | { readonly kind: 'sqlite'; readonly store: SqliteStore }
  | { readonly kind: 'postgres'; readonly store: PgStore }
  | { readonly kind: 'mariadb'; readonly store: MariaDbStore };

/**
 * Opens the configured store and applies pending migrations. A store that cannot be opened
 * (a folder hop may not write, a server that refuses) is a ConfigError naming the setting.
 * `serving`: a long-running server checkpoints SQLite's WAL in the background.
 */
export async function openStore(
  config: Config,
  logger: Logger,
  serving: boolean,
): Promise<OpenedStore> {
  const database = config.database;
  if (database === undefined) return { kind: 'sqlite', store: openSqlite(config, logger, serving) };
  const engineName = database.engine === 'postgres' ? 'PostgreSQL' : 'MariaDB';
  const shared = {
    url: database.url,
    poolSize: database.poolSize,
    redirectReadTimeoutMs: database.redirectReadTimeoutMs,
    statementTimeoutMs: database.statementTimeoutMs,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    // An idle connection dropped by a restarting server: the pool opens a new one.
    onIdleError: (error: Error) => {
      logger.warn({ err: error }, `a ${engineName} connection was lost; reconnecting on next use`);
    },
  };
  try {
    // Loaded only when configured: the embedded default never loads pg or mysql2.
    if (database.engine === 'mariadb') {
      const { MariaDbStore } = await import('../adapters/mariadb/mariadb-store.js');
      return { kind: 'mariadb', store: await MariaDbStore.open(shared) };
    }
    const { PgStore } = await import('../adapters/postgres/pg-store.js');
    const store = await PgStore.open({
      ...shared,
      replicaUrl: database.replicaUrl,
      schema: database.schema,
    });
    return { kind: 'postgres', store };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([`HOP_DATABASE_URL cannot be used: ${reason}`]);
  }
}

function openSqlite(config: Config, logger: Logger, serving: boolean): SqliteStore {
  prepareDataDir(config);
  try {
    if (!serving) {
      return SqliteStore.open({
        file: config.databaseFile,
        clicksFile: config.clicksDatabaseFile,
        pageCacheMebibytes: config.sqliteCacheMebibytes,
      });
    }
    let failing = false;
    return SqliteStore.open({
      file: config.databaseFile,
      clicksFile: config.clicksDatabaseFile,
      pageCacheMebibytes: config.sqliteCacheMebibytes,
      backgroundCheckpoints: {
        intervalMs: CHECKPOINT_INTERVAL_MS,
        onResult: (result) => {
          if (result.kind === 'failed' && !failing) {
            logger.warn({ reason: result.reason }, 'WAL checkpoint failed');
          }
          failing = result.kind === 'failed';
        },
      },
      insertThread: {
        onLost: (reason) => {
          logger.error({ reason }, 'the link insert thread ended; the next create starts it again');
        },
      },
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([
      `HOP_DATA_DIR=${JSON.stringify(config.dataDir)} cannot be used: ${reason}`,
    ]);
  }
}

/** Where the configured store keeps its data, for logs and CLI output (no credentials). */
export function describeStore(config: Config): string {
  if (config.database === undefined) return config.databaseFile;
  const url = new URL(config.database.url);
  if (config.database.engine === 'mariadb') return `${url.protocol}//${url.host}${url.pathname}`;
  return `postgres://${url.host}${url.pathname} (schema ${config.database.schema})`;
}

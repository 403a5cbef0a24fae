import type { PgStore } from '../adapters/postgres/pg-store.js';
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';
import type { Logger } from '../observability/logger.js';
import { prepareDataDir } from './data-dir.js';

/** How often the WAL is copied back into the database file while serving. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** How long a query waits for a PostgreSQL connection before the request fails (503). */
const PG_CONNECT_TIMEOUT_MS = 2000;

/** The store chosen by config: PostgreSQL when HOP_DATABASE_URL is set, else SQLite files. */
export type OpenedStore =
  | { readonly kind: 'sqlite'; readonly store: SqliteStore }
  | { readonly kind: 'postgres'; readonly store: PgStore };

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
  const postgres = config.postgres;
  if (postgres === undefined) return { kind: 'sqlite', store: openSqlite(config, logger, serving) };
  try {
    // Loaded only when configured: the embedded default never loads pg.
    const { PgStore } = await import('../adapters/postgres/pg-store.js');
    const store = await PgStore.open({
      url: postgres.url,
      replicaUrl: postgres.replicaUrl,
      schema: postgres.schema,
      poolSize: postgres.poolSize,
      redirectReadTimeoutMs: postgres.redirectReadTimeoutMs,
      statementTimeoutMs: postgres.statementTimeoutMs,
      connectTimeoutMs: PG_CONNECT_TIMEOUT_MS,
      // An idle connection dropped by a restarting server: the pool opens a new one.
      onIdleError: (error) => {
        logger.warn({ err: error }, 'a PostgreSQL connection was lost; reconnecting on next use');
      },
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
      });
    }
    let failing = false;
    return SqliteStore.open({
      file: config.databaseFile,
      clicksFile: config.clicksDatabaseFile,
      backgroundCheckpoints: {
        intervalMs: CHECKPOINT_INTERVAL_MS,
        onResult: (result) => {
          if (result.kind === 'failed' && !failing) {
            logger.warn({ reason: result.reason }, 'WAL checkpoint failed');
          }
          failing = result.kind === 'failed';
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
  if (config.postgres === undefined) return config.databaseFile;
  const url = new URL(config.postgres.url);
  return `postgres://${url.host}${url.pathname} (schema ${config.postgres.schema})`;
}

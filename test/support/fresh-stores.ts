import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MariaDbStore,
  type MariaDbStoreOptions,
} from '../../src/adapters/mariadb/mariadb-store.js';
import { PgStore, type PgStoreOptions } from '../../src/adapters/postgres/pg-store.js';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { giveBackDatabase, takeDatabase } from './mariadb-databases.js';
import { mariadbUrlOf } from './require-mariadb.js';
import { giveBackSchema, takeSchema } from './pg-schemas.js';
import { POSTGRES_URL } from './require-postgres.js';

/** A fresh, migrated store; `cleanup` closes it and removes what it made. */
export interface FreshStore<S extends Store = Store> {
  readonly store: S;
  readonly cleanup: () => Promise<void>;
}

/** A PgStore on the shared test PostgreSQL in `schema`, with short timeouts. */
export function pgStoreOptions(
  schema: string,
  overrides: Partial<PgStoreOptions> = {},
): PgStoreOptions {
  return {
    url: POSTGRES_URL,
    schema,
    poolSize: 4,
    redirectReadTimeoutMs: 1000,
    statementTimeoutMs: 5000,
    connectTimeoutMs: 2000,
    onIdleError: () => undefined,
    ...overrides,
  };
}

/** A SqliteStore in a temp dir of its own, removed by `cleanup`. */
export async function openFreshSqliteStore(): Promise<FreshStore<SqliteStore>> {
  const dir = mkdtempSync(join(tmpdir(), 'hop-contract-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PgStore on an empty schema of its own, emptied again by `cleanup` for the next. */
export async function openFreshPgStore(): Promise<FreshStore<PgStore>> {
  const schema = takeSchema();
  const store = await PgStore.open(pgStoreOptions(schema));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await giveBackSchema(schema);
    },
  };
}

/** A MariaDbStore on the shared test MariaDB in `database`, with short timeouts. */
export function mariadbStoreOptions(
  database: string,
  overrides: Partial<MariaDbStoreOptions> = {},
): MariaDbStoreOptions {
  return {
    url: mariadbUrlOf(database),
    poolSize: 4,
    redirectReadTimeoutMs: 1000,
    statementTimeoutMs: 5000,
    connectTimeoutMs: 2000,
    onIdleError: () => undefined,
    ...overrides,
  };
}

/** A MariaDbStore on an empty database of its own, emptied again by `cleanup` for the next. */
export async function openFreshMariaDbStore(): Promise<FreshStore<MariaDbStore>> {
  const database = takeDatabase();
  const store = await MariaDbStore.open(mariadbStoreOptions(database));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await giveBackDatabase(database);
    },
  };
}

import type pg from 'pg';
import type { Store } from '../../ports/store.js';
import { PgApiKeyStore } from './pg-api-key-store.js';
import { PgClickStore } from './pg-click-store.js';
import { guardPg } from './pg-errors.js';
import { PgLinkCensus } from './pg-link-census.js';
import { PgLinkStore } from './pg-link-store.js';
import { applyPgMigrations } from './pg-migrations.js';
import { openPgPool } from './pg-pool.js';
import { PgSequenceStore } from './pg-sequence-store.js';

export interface PgStoreOptions {
  /** The primary: every write, and every read but redirects'. */
  readonly url: string;
  /** A streaming replica for redirect reads; absent: the primary serves them too. */
  readonly replicaUrl?: string | undefined;
  /** Schema holding hop's tables; created by the first migration if missing. */
  readonly schema: string;
  /** Connections per pool (the primary's, and the redirect reads'). */
  readonly poolSize: number;
  /** Limit of a redirect's read (SPEC §5: the store timeout); past it, 503, never a guess. */
  readonly redirectReadTimeoutMs: number;
  /** Limit of every other statement (creates, edits, sweeps, folds). */
  readonly statementTimeoutMs: number;
  /** How long a query waits for a connection (pool full, or server unreachable). */
  readonly connectTimeoutMs: number;
  readonly onIdleError: (error: Error) => void;
}

/** The shared store: PostgreSQL, optionally with a replica for redirects (SPEC §4, §9). */
export class PgStore implements Store {
  readonly links: PgLinkStore;
  readonly keys: PgApiKeyStore;
  readonly clicks: PgClickStore;
  readonly sequences: PgSequenceStore;
  readonly census: PgLinkCensus;
  readonly migrationsAppliedAtOpen: readonly number[];
  readonly #primary: pg.Pool;
  readonly #redirectReads: pg.Pool;
  readonly #schema: string;
  #closed: Promise<void> | null = null;

  private constructor(
    primary: pg.Pool,
    redirectReads: pg.Pool,
    replica: boolean,
    schema: string,
    applied: readonly number[],
  ) {
    this.#primary = primary;
    this.#redirectReads = redirectReads;
    this.#schema = schema;
    this.migrationsAppliedAtOpen = applied;
    this.links = new PgLinkStore({ primary, redirectReads, redirectReadsAreReplica: replica });
    this.keys = new PgApiKeyStore(primary);
    this.clicks = new PgClickStore(primary);
    this.sequences = new PgSequenceStore(primary);
    this.census = new PgLinkCensus(primary);
  }

  /** Connects, applies pending migrations, and returns the store; rejects if unreachable. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
      throw new RangeError(`not a schema name: ${options.schema}`);
    }
    const base = {
      schema: options.schema,
      maxConnections: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs,
      onIdleError: options.onIdleError,
    };
    const primary = openPgPool({
      ...base,
      url: options.url,
      statementTimeoutMs: options.statementTimeoutMs,
      applicationName: 'hop',
    });
    // Redirect reads get a pool of their own: their short timeout, and a burst of misses
    // never queues behind creates for a connection (nor creates behind them).
    const redirectReads = openPgPool({
      ...base,
      url: options.replicaUrl ?? options.url,
      statementTimeoutMs: options.redirectReadTimeoutMs,
      applicationName: 'hop-redirects',
    });
    try {
      const client = await primary.connect();
      let applied: number[];
      try {
        applied = await applyPgMigrations(client, options.schema);
      } finally {
        client.release();
      }
      return new PgStore(
        primary,
        redirectReads,
        options.replicaUrl !== undefined,
        options.schema,
        applied,
      );
    } catch (error) {
      await Promise.all([primary.end(), redirectReads.end()]);
      throw error;
    }
  }

  /** The schema the tables are in. */
  get schema(): string {
    return this.#schema;
  }

  async ping(): Promise<void> {
    await guardPg('answer', () => this.#primary.query('SELECT 1'));
  }

  async migrate(): Promise<readonly number[]> {
    return guardPg('migrate', async () => {
      const client = await this.#primary.connect();
      try {
        return await applyPgMigrations(client, this.#schema);
      } finally {
        client.release();
      }
    });
  }

  close(): Promise<void> {
    this.#closed ??= Promise.all([this.#primary.end(), this.#redirectReads.end()]).then(
      () => undefined,
    );
    return this.#closed;
  }
}

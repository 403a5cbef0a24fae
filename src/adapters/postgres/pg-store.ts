import { PgLinkEventLog } from './pg-link-event-log.js';
import { PgWebhookStore } from './pg-webhook-store.js';
import { PgClickEventLog } from './pg-click-event-log.js';
import { PgVisitLog } from './pg-visit-log.js';
import { PgDomainStore } from './pg-domain-store.js';
import type pg from 'pg';
import type { Store } from '../../ports/store.js';
import { PgApiKeyStore } from './pg-api-key-store.js';
import { PgBulkAnswers } from './pg-bulk-answers.js';
import { PgClickStore } from './pg-click-store.js';
import { PgCrawlableLinks } from './pg-crawlable-links.js';
import { guardPg } from './pg-errors.js';
import { PgLinkCensus } from './pg-link-census.js';
import { PgCodeScan } from './pg-code-scan.js';
import { PgTagQueries } from './pg-tag-queries.js';
import { PgClickAnalyticsQueries } from './pg-click-analytics-queries.js';
import { PgLinkRepository } from './pg-link-repository.js';
import { PgRedirectAllowance } from './pg-redirect-allowance.js';
import { PgRedirectReads } from './pg-redirect-reads.js';
import { PgSweepQueries } from './pg-sweep-queries.js';
import { applyPgMigrations } from './pg-migrations.js';
import { connectForMigrations, openPgPool } from './pg-pool.js';
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
  readonly links: PgLinkRepository;
  readonly tags: PgTagQueries;
  readonly redirects: PgRedirectReads;
  readonly redirectAllowance: PgRedirectAllowance;
  readonly codeScan: PgCodeScan;
  readonly sweep: PgSweepQueries;
  readonly keys: PgApiKeyStore;
  readonly bulkAnswers: PgBulkAnswers;
  readonly domains: PgDomainStore;
  readonly clicks: PgClickStore;
  readonly clickAnalytics: PgClickAnalyticsQueries;
  readonly visits: PgVisitLog;
  readonly clickEvents: PgClickEventLog;
  /** Folds write their logs themselves here. */
  readonly foldLogSpool = null;
  readonly sequences: PgSequenceStore;
  readonly census: PgLinkCensus;
  readonly crawlableLinks: PgCrawlableLinks;
  /** Instances tell each other of changes through Redis (the shared cache's channel). */
  readonly linkChanges = null;
  readonly linkEvents: PgLinkEventLog;
  readonly webhooks: PgWebhookStore;
  readonly migrationsAppliedAtOpen: readonly number[];
  readonly #primary: pg.Pool;
  readonly #pools: readonly pg.Pool[];
  readonly #schema: string;
  readonly #url: string;
  #closed: Promise<void> | null = null;

  private constructor(
    roles: { primary: pg.Pool; redirectReads: pg.Pool; primaryRedirectReads: pg.Pool },
    pools: readonly pg.Pool[],
    url: string,
    replica: boolean,
    schema: string,
    applied: readonly number[],
  ) {
    const { primary } = roles;
    this.#primary = primary;
    this.#pools = pools;
    this.#schema = schema;
    this.#url = url;
    this.migrationsAppliedAtOpen = applied;
    this.links = new PgLinkRepository(primary);
    this.linkEvents = new PgLinkEventLog(primary);
    this.webhooks = new PgWebhookStore(primary);
    this.tags = new PgTagQueries(primary);
    this.redirects = new PgRedirectReads({ ...roles, redirectReadsAreReplica: replica });
    // A take is a write: the primary. Takes of one link wait on its row's lock in turn, so
    // a burst on a limited link queues behind HOP_STATEMENT_TIMEOUT, not the redirect's
    // short read timeout (30 ms answered 503s to a burst of 50: ADR 0111).
    this.redirectAllowance = new PgRedirectAllowance(primary);
    this.codeScan = new PgCodeScan(primary);
    this.sweep = new PgSweepQueries(primary);
    this.keys = new PgApiKeyStore(primary);
    this.bulkAnswers = new PgBulkAnswers(primary);
    this.domains = new PgDomainStore(primary);
    this.clicks = new PgClickStore(primary);
    this.clickAnalytics = new PgClickAnalyticsQueries(primary);
    this.visits = new PgVisitLog(primary);
    this.clickEvents = new PgClickEventLog(primary);
    this.sequences = new PgSequenceStore(primary);
    this.census = new PgLinkCensus(primary);
    this.crawlableLinks = new PgCrawlableLinks(primary);
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
    // never queues behind creates for a connection (nor creates behind them). With a
    // replica, the primary's share of them (replica misses and failures) gets one too.
    const redirectReads = openPgPool({
      ...base,
      url: options.replicaUrl ?? options.url,
      statementTimeoutMs: options.redirectReadTimeoutMs,
      applicationName: 'hop-redirects',
    });
    const primaryRedirectReads =
      options.replicaUrl === undefined
        ? redirectReads
        : openPgPool({
            ...base,
            url: options.url,
            statementTimeoutMs: options.redirectReadTimeoutMs,
            applicationName: 'hop-redirects-primary',
          });
    const pools = [...new Set([primary, redirectReads, primaryRedirectReads])];
    try {
      const applied = await migrateWith(options.url, options.schema);
      return new PgStore(
        { primary, redirectReads, primaryRedirectReads },
        pools,
        options.url,
        options.replicaUrl !== undefined,
        options.schema,
        applied,
      );
    } catch (error) {
      await Promise.all(pools.map((pool) => pool.end()));
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
    return guardPg('migrate', () => migrateWith(this.#url, this.#schema));
  }

  close(): Promise<void> {
    this.#closed ??= Promise.all(this.#pools.map((pool) => pool.end())).then(() => undefined);
    return this.#closed;
  }
}

/** Applies pending migrations over a connection of their own (no request timeouts). */
async function migrateWith(url: string, schema: string): Promise<number[]> {
  const client = await connectForMigrations(url);
  try {
    return await applyPgMigrations(client, schema);
  } finally {
    await client.end();
  }
}

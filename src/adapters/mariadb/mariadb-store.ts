import type { Pool } from 'mysql2/promise';
import type { Store } from '../../ports/store.js';
import { MariaDbApiKeyStore } from './mariadb-api-key-store.js';
import { MariaDbBulkAnswers } from './mariadb-bulk-answers.js';
import { MariaDbClickAnalyticsQueries } from './mariadb-click-analytics-queries.js';
import { MariaDbClickEventLog } from './mariadb-click-event-log.js';
import { MariaDbClickStore } from './mariadb-click-store.js';
import { MariaDbCodeScan } from './mariadb-code-scan.js';
import { MariaDbCrawlableLinks } from './mariadb-crawlable-links.js';
import { MariaDbDomainStore } from './mariadb-domain-store.js';
import { guardMariaDb } from './mariadb-errors.js';
import { MariaDbLinkCensus } from './mariadb-link-census.js';
import { MariaDbLinkChangeFeed } from './mariadb-link-change-feed.js';
import { MariaDbLinkEventLog } from './mariadb-link-event-log.js';
import { MariaDbLinkRepository } from './mariadb-link-repository.js';
import { applyMariaDbMigrations } from './mariadb-migrations.js';
import { connectForMigrations, openMariaDbPool } from './mariadb-pool.js';
import { MariaDbRedirectAllowance } from './mariadb-redirect-allowance.js';
import { MariaDbRedirectReads } from './mariadb-redirect-reads.js';
import { MariaDbSequenceStore } from './mariadb-sequence-store.js';
import { MariaDbSweepQueries } from './mariadb-sweep-queries.js';
import { MariaDbTagQueries } from './mariadb-tag-queries.js';
import { MariaDbVisitLog } from './mariadb-visit-log.js';
import { MariaDbWebhookStore } from './mariadb-webhook-store.js';

/** How much longer than the statement timeout an event log waits out a gap. */
const EVENT_SETTLE_MARGIN_MS = 1000;

export interface MariaDbStoreOptions {
  /** mysql:// or mariadb:// with the database hop's tables live in (created if missing). */
  readonly url: string;
  /** Connections per pool (writes and other reads; redirect reads). */
  readonly poolSize: number;
  /** Limit of a redirect's read (SPEC §5: the store timeout); past it, 503, never a guess. */
  readonly redirectReadTimeoutMs: number;
  /** Limit of every other statement (creates, edits, sweeps, folds). */
  readonly statementTimeoutMs: number;
  /** How long opening a connection may take (server unreachable). */
  readonly connectTimeoutMs: number;
  readonly onIdleError: (error: Error) => void;
}

/**
 * The shared store on MariaDB or MySQL (issue 25, ADR 0140), and on a MariaDB Galera
 * cluster when each region's instances name their region's node: every write goes to that
 * node and is certified cluster-wide at COMMIT; every read stays in the region.
 */
export class MariaDbStore implements Store {
  readonly links: MariaDbLinkRepository;
  readonly tags: MariaDbTagQueries;
  readonly redirects: MariaDbRedirectReads;
  readonly redirectAllowance: MariaDbRedirectAllowance;
  readonly codeScan: MariaDbCodeScan;
  readonly sweep: MariaDbSweepQueries;
  readonly keys: MariaDbApiKeyStore;
  readonly bulkAnswers: MariaDbBulkAnswers;
  readonly domains: MariaDbDomainStore;
  readonly clicks: MariaDbClickStore;
  readonly clickAnalytics: MariaDbClickAnalyticsQueries;
  readonly visits: MariaDbVisitLog;
  readonly clickEvents: MariaDbClickEventLog;
  /** Folds write their logs themselves here. */
  readonly foldLogSpool = null;
  readonly sequences: MariaDbSequenceStore;
  readonly census: MariaDbLinkCensus;
  readonly crawlableLinks: MariaDbCrawlableLinks;
  /**
   * Changes made anywhere, followed by every instance (ADR 0141): Redis and NATS tell of a
   * change at once; this catches up what a region cut off from them missed.
   */
  readonly linkChanges: MariaDbLinkChangeFeed;
  readonly linkEvents: MariaDbLinkEventLog;
  readonly webhooks: MariaDbWebhookStore;
  readonly migrationsAppliedAtOpen: readonly number[];
  readonly #primary: Pool;
  readonly #pools: readonly Pool[];
  readonly #url: string;
  #closed: Promise<void> | null = null;

  private constructor(
    primary: Pool,
    redirectReads: Pool,
    url: string,
    applied: readonly number[],
    statementTimeoutMs: number,
  ) {
    this.#primary = primary;
    this.#pools = [primary, redirectReads];
    this.#url = url;
    this.migrationsAppliedAtOpen = applied;
    this.links = new MariaDbLinkRepository(primary);
    this.tags = new MariaDbTagQueries(primary);
    this.redirects = new MariaDbRedirectReads(redirectReads);
    this.redirectAllowance = new MariaDbRedirectAllowance(primary);
    this.codeScan = new MariaDbCodeScan(primary);
    this.sweep = new MariaDbSweepQueries(primary);
    this.keys = new MariaDbApiKeyStore(primary);
    this.bulkAnswers = new MariaDbBulkAnswers(primary);
    this.domains = new MariaDbDomainStore(primary);
    this.clicks = new MariaDbClickStore(primary);
    this.clickAnalytics = new MariaDbClickAnalyticsQueries(primary);
    this.visits = new MariaDbVisitLog(primary);
    // A gap in an event log is waited for as long as the transaction that left it may still
    // run: its statements are bounded by the statement timeout (ADR 0140).
    const settleMs = statementTimeoutMs + EVENT_SETTLE_MARGIN_MS;
    this.clickEvents = new MariaDbClickEventLog(primary, settleMs);
    this.sequences = new MariaDbSequenceStore(primary);
    this.census = new MariaDbLinkCensus(primary);
    this.crawlableLinks = new MariaDbCrawlableLinks(primary);
    this.linkEvents = new MariaDbLinkEventLog(primary, settleMs);
    this.linkChanges = new MariaDbLinkChangeFeed(this.linkEvents);
    this.webhooks = new MariaDbWebhookStore(primary);
  }

  /** Connects, creates the database if missing, applies pending migrations; rejects if unreachable. */
  static async open(options: MariaDbStoreOptions): Promise<MariaDbStore> {
    const applied = await migrateWith(options.url);
    const base = {
      url: options.url,
      maxConnections: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs,
      onIdleError: options.onIdleError,
    };
    const primary = openMariaDbPool({ ...base, statementTimeoutMs: options.statementTimeoutMs });
    // Redirect reads get a pool of their own: their short timeout, a burst of misses never
    // queues behind creates for a connection, and on a Galera node cut off from the
    // cluster they still read what the node holds (dirty reads): redirects carry on.
    const redirectReads = openMariaDbPool({
      ...base,
      statementTimeoutMs: options.redirectReadTimeoutMs,
      dirtyReads: true,
    });
    return new MariaDbStore(
      primary,
      redirectReads,
      options.url,
      applied,
      options.statementTimeoutMs,
    );
  }

  async ping(): Promise<void> {
    await guardMariaDb('answer', () => this.#primary.query('SELECT 1'));
  }

  async migrate(): Promise<readonly number[]> {
    return guardMariaDb('migrate', () => migrateWith(this.#url));
  }

  close(): Promise<void> {
    this.#closed ??= Promise.all(this.#pools.map((pool) => pool.end())).then(() => undefined);
    return this.#closed;
  }
}

/** Applies pending migrations over a connection of their own (no request timeouts). */
async function migrateWith(url: string): Promise<number[]> {
  const connection = await connectForMigrations(url);
  try {
    return await applyMariaDbMigrations(connection);
  } finally {
    await connection.end();
  }
}

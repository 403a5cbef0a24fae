import { SqliteDomainStore } from './sqlite-domain-store.js';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Store } from '../../ports/store.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { SqliteBulkAnswers } from './sqlite-bulk-answers.js';
import { SqliteClickDatabase } from './sqlite-click-database.js';
import type { SqliteClickEventLog } from './sqlite-click-event-log.js';
import type { SqliteFoldLogSpool, WriteSpooledChunk } from './sqlite-fold-log-spool.js';
import type { SqliteVisitLog } from './sqlite-visit-log.js';
import type { SqliteClickQueue } from './sqlite-click-queue.js';
import type { SqliteClickStore } from './sqlite-click-store.js';
import { guardSqlite } from './sqlite-errors.js';
import { SqliteCodeScan } from './sqlite-code-scan.js';
import { SqliteCrawlableLinks } from './sqlite-crawlable-links.js';
import { SqliteLinkRepository } from './sqlite-link-repository.js';
import { SqliteRedirectAllowance } from './sqlite-redirect-allowance.js';
import { SqliteRedirectReads } from './sqlite-redirect-reads.js';
import { SqliteSweepQueries } from './sqlite-sweep-queries.js';
import { SqliteTagQueries } from './sqlite-tag-queries.js';
import { SqliteClickAnalyticsQueries } from './sqlite-click-analytics-queries.js';
import { SqliteSequenceStore } from './sqlite-sequence-store.js';
import { SqliteLinkEventLog } from './sqlite-link-event-log.js';
import { SqliteWebhookStore } from './sqlite-webhook-store.js';
import { SqliteLinkChangeFeed } from './sqlite-link-change-feed.js';
import { SqliteLinkCensus } from './sqlite-link-census.js';
import { applyMigrations } from './sqlite-migrations.js';
import { openDatabaseFile } from './open-database-file.js';
import { startLinkInsertThread, type LinkInsertThread } from './link-insert-thread.js';
import {
  startBackgroundCheckpoints,
  type BackgroundCheckpoints,
  type CheckpointResult,
} from './background-checkpoints.js';

export interface SqliteStoreOptions {
  /** Path of the database file; its folder is created if missing. */
  readonly file: string;
  /** The click database (clicks.db); default: beside `file`. */
  readonly clicksFile?: string;
  /**
   * Checkpoint the WAL from a worker thread this often, instead of inside whichever commit
   * fills it (whose fsyncs would stall every request waiting behind it). Absent: SQLite's
   * automatic checkpoints, as a short-lived CLI command wants.
   */
  readonly backgroundCheckpoints?: {
    readonly intervalMs: number;
    readonly onResult: (result: CheckpointResult) => void;
  };
  /**
   * Write creates on a thread of their own (ADR 0144), not on the connection the event
   * loop reads redirects on; `onLost` hears of a thread that ended unasked. Absent: here,
   * as a short-lived CLI command wants.
   */
  readonly insertThread?: { readonly onLost: (reason: string) => void };
  /**
   * The redirect connection's page cache in MiB (HOP_SQLITE_CACHE_MB); absent: sized by
   * the links the store holds when opened (`pageCacheMebibytesFor`, ADR 0149).
   */
  readonly pageCacheMebibytes?: number | undefined;
}

/** The page cache of a store small enough for it to hold much of the redirect index. */
const SMALL_STORE_CACHE_MIB = 64;
/**
 * Links a MiB of a larger store's page cache is for: what that cache must hold is the
 * redirect index's interior, about 0.5% of the index (5 MB of 1,021 at ten million links,
 * ADR 0149); 8 MiB per ten million links holds it with a little to spare.
 */
const LARGE_STORE_LINKS_PER_MIB = 1_250_000;
/** At the least: just past 2.5M links the interior is about 1.3 MB; 8 MiB holds it and some leaves. */
const LARGE_STORE_MIN_CACHE_MIB = 8;
/**
 * Links up to which a store counts as small: its redirect index (links_redirect, about
 * 100 MB a million links) is then at most four times the small store's cache.
 */
const SMALL_STORE_LINKS = 2_500_000;

/**
 * The page cache for a store of `links` links, in MiB (ADR 0149, ADR 0151). 64 MB keeps
 * most of a small store's redirect index here: at 1M links, 2 MB instead cost 5–10% of
 * `uniform`'s redirects, paired (BENCHMARKS.md, 2026-12-06 20:13). Past a few million links
 * the index is gigabytes, and a cache of any affordable size holds too few of its leaves
 * to spare random reads the OS: what it must hold is the index's interior, which every
 * lookup walks, so it grows with the store (8 MiB at 10M links, 16 at 20M).
 */
export function pageCacheMebibytesFor(links: number): number {
  if (links <= SMALL_STORE_LINKS) return SMALL_STORE_CACHE_MIB;
  return Math.max(LARGE_STORE_MIN_CACHE_MIB, Math.ceil(links / LARGE_STORE_LINKS_PER_MIB));
}

/** The embedded store: one SQLite file in WAL mode (SPEC §4). */
export class SqliteStore implements Store {
  readonly links: SqliteLinkRepository;
  readonly redirects: SqliteRedirectReads;
  readonly tags: SqliteTagQueries;
  readonly redirectAllowance: SqliteRedirectAllowance;
  readonly codeScan: SqliteCodeScan;
  readonly sweep: SqliteSweepQueries;
  readonly keys: SqliteApiKeyStore;
  readonly bulkAnswers: SqliteBulkAnswers;
  readonly domains: SqliteDomainStore;
  readonly clicks: SqliteClickStore;
  readonly clickAnalytics: SqliteClickAnalyticsQueries;
  readonly visits: SqliteVisitLog;
  readonly clickEvents: SqliteClickEventLog;
  readonly foldLogSpool: SqliteFoldLogSpool;
  readonly sequences: SqliteSequenceStore;
  readonly census: SqliteLinkCensus;
  readonly crawlableLinks: SqliteCrawlableLinks;
  readonly linkChanges: SqliteLinkChangeFeed;
  readonly linkEvents: SqliteLinkEventLog;
  readonly webhooks: SqliteWebhookStore;
  /** The embedded click sink and the aggregator's source (SPEC §6). */
  readonly clickQueue: SqliteClickQueue;
  /** Versions applied when this store was opened (statements need the current schema). */
  readonly migrationsAppliedAtOpen: readonly number[];
  readonly #db: Database.Database;
  readonly #clickDb: SqliteClickDatabase;
  readonly #checkpoints: BackgroundCheckpoints | null;
  readonly #insertThread: LinkInsertThread | null;

  private constructor(
    db: Database.Database,
    applied: readonly number[],
    checkpoints: BackgroundCheckpoints | null,
    clickDb: SqliteClickDatabase,
    clicksFile: string,
    insertThread: LinkInsertThread | null,
    codeScan: SqliteCodeScan,
  ) {
    this.#db = db;
    this.#insertThread = insertThread;
    this.#clickDb = clickDb;
    this.#checkpoints = checkpoints;
    this.migrationsAppliedAtOpen = applied;
    this.links = new SqliteLinkRepository(db, clicksFile);
    this.links.insertOn(insertThread);
    this.redirects = new SqliteRedirectReads(db);
    const links = this.links;
    this.tags = new SqliteTagQueries(() => links.connectionWithClicks());
    this.clickAnalytics = new SqliteClickAnalyticsQueries(() => links.connectionWithClicks());
    this.redirectAllowance = new SqliteRedirectAllowance(db);
    this.codeScan = codeScan;
    this.sweep = new SqliteSweepQueries(db);
    this.keys = new SqliteApiKeyStore(db);
    this.bulkAnswers = new SqliteBulkAnswers(db);
    this.domains = new SqliteDomainStore(db);
    this.sequences = new SqliteSequenceStore(db);
    this.census = new SqliteLinkCensus(db);
    this.crawlableLinks = new SqliteCrawlableLinks(db);
    this.linkChanges = new SqliteLinkChangeFeed(db);
    this.linkEvents = new SqliteLinkEventLog(db);
    this.webhooks = new SqliteWebhookStore(db);
    this.clicks = clickDb.clicks;
    this.visits = clickDb.visits;
    this.clickEvents = clickDb.clickEvents;
    this.foldLogSpool = clickDb.foldLogSpool;
    this.clickQueue = clickDb.clickQueue;
  }

  static open(options: SqliteStoreOptions): SqliteStore {
    const db = openDatabaseFile(options.file);
    db.pragma('foreign_keys = ON');
    // Not memory-mapped: mapped pages count as the process's own memory, and a scan of the
    // codes table (the known-codes load) would map the whole file (1M links: 390 MB
    // resident mapped, 256 MB not, at the same redirect throughput, measured on this machine).
    db.pragma('mmap_size = 0');
    const applied = applyMigrations(db);
    // Sized after the migrations, which a first start needs to find a `links` table; the
    // store's code scan reads how many rows there have been.
    const codeScan = new SqliteCodeScan(db);
    const cacheMebibytes =
      options.pageCacheMebibytes ?? pageCacheMebibytesFor(codeScan.lastRowid());
    db.pragma(`cache_size = ${-cacheMebibytes * 1024}`);
    const clicksFile = options.clicksFile ?? join(dirname(options.file), 'clicks.db');
    const clickDb = SqliteClickDatabase.open(clicksFile);
    const insertThread =
      options.insertThread === undefined
        ? null
        : startLinkInsertThread(options.file, options.insertThread.onLost);
    const background = options.backgroundCheckpoints;
    if (background === undefined) {
      return new SqliteStore(db, applied, null, clickDb, clicksFile, insertThread, codeScan);
    }
    db.pragma('wal_autocheckpoint = 0');
    const checkpoints = startBackgroundCheckpoints(
      options.file,
      background.intervalMs,
      background.onResult,
      () => {
        // A worker that died must not leave the WAL growing for the life of the process:
        // SQLite's own checkpoints (1000 pages, its default) take over.
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      },
    );
    return new SqliteStore(db, applied, checkpoints, clickDb, clicksFile, insertThread, codeScan);
  }

  /** The redirect connection's page cache, in MiB, as SQLite has it (ADR 0149). */
  pageCacheMebibytes(): number {
    // Negative: in KiB (a positive size would be in pages).
    return -(this.#db.pragma('cache_size', { simple: true }) as number) / 1024;
  }

  async ping(): Promise<void> {
    guardSqlite('answer', () => this.#db.prepare('SELECT 1').get());
  }

  /** The spool, planned here and written by `write` (`hop serve`: ADR 0132). */
  foldLogSpoolWritingThrough(write: WriteSpooledChunk): SqliteFoldLogSpool {
    return this.#clickDb.foldLogSpoolWritingThrough(write);
  }

  async migrate(): Promise<readonly number[]> {
    this.#clickDb.migrate();
    return applyMigrations(this.#db);
  }

  async close(): Promise<void> {
    this.links.insertOn(null);
    await this.#insertThread?.stop();
    await this.#checkpoints?.stop();
    this.#clickDb.close();
    this.links.close();
    // The last connection to close checkpoints what is left.
    if (this.#db.open) this.#db.close();
  }
}

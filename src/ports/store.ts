import type { FoldLogSpool } from './fold-log-spool.js';
import type { ApiKeyStore } from './api-key-store.js';
import type { BulkAnswerStore } from './bulk-answers.js';
import type { ClickAnalyticsQueries } from './click-analytics-queries.js';
import type { ClickStore } from './click-store.js';
import type { ClickEventLog } from './event-log.js';
import type { VisitLog } from './visit-log.js';
import type { CrawlableLinks } from './crawlable-links.js';
import type { DomainStore } from './domain-store.js';
import type { LinkCensus } from './link-census.js';
import type { LinkChangeFeed } from './link-change-feed.js';
import type { LinkEventLog } from './event-log.js';
import type { LinkCodeScan } from './link-code-scan.js';
import type { LinkRepository } from './link-repository.js';
import type { RedirectAllowance } from './redirect-allowance.js';
import type { RedirectReads } from './redirect-reads.js';
import type { SequenceStore } from './sequence-store.js';
import type { SweepQueries } from './sweep-queries.js';
import type { TagQueries } from './tag-queries.js';
import type { WebhookStore } from './webhook-store.js';

/** Everything one storage backend provides, opened and closed together. */
export interface Store {
  /** Whole links: creates (with their idempotency claims), reads, lists, edits, imports. */
  readonly links: LinkRepository;
  /** The redirect's read on a cache miss. */
  readonly redirects: RedirectReads;
  /** Tags with their links and clicks (issue 22). */
  readonly tags: TagQueries;
  /** Exact redirect budgets of links with a click limit (issue 21 `max_clicks`, ADR 0111). */
  readonly redirectAllowance: RedirectAllowance;
  /** Every code held, in pages: the known-codes filter and pool generation. */
  readonly codeScan: LinkCodeScan;
  /** The sweeper's batches: marking expired, reclaiming codes, purging idempotency records. */
  readonly sweep: SweepQueries;
  readonly keys: ApiKeyStore;
  /** Answers of bulk link calls made with an Idempotency-Key (ADR 0120). */
  readonly bulkAnswers: BulkAnswerStore;
  /** The short domains beside the default one (issue 22). */
  readonly domains: DomainStore;
  readonly clicks: ClickStore;
  /** Clicks summed across many links at once (`GET /v1/analytics`, ADR 0126). */
  readonly clickAnalytics: ClickAnalyticsQueries;
  /** Each counted click, when HOP_VISIT_LOG is on (issue 23, ADR 0125). */
  readonly visits: VisitLog;
  /** Counted clicks per link and second, for webhooks and the event stream (ADR 0125). */
  readonly clickEvents: ClickEventLog;
  /**
   * `hop serve`'s folds' visits and click events, spooled for its integrations thread to
   * write out (ADR 0132); null where folds write them themselves (PostgreSQL).
   */
  readonly foldLogSpool: FoldLogSpool | null;
  /** Counters leased in blocks: the permutation counter, pool offsets. */
  readonly sequences: SequenceStore;
  /** Counts active links for the guess probability. */
  readonly census: LinkCensus;
  /** The crawlable links' codes, for robots.txt (issue 22). */
  readonly crawlableLinks: CrawlableLinks;
  /**
   * Changes made by every process on a store that has no broadcast of its own (the
   * embedded SQLite file); null where instances tell each other through Redis.
   */
  readonly linkChanges: LinkChangeFeed | null;
  /** The outbox of link events (issue 23, ADR 0127): webhooks and the event stream read it. */
  readonly linkEvents: LinkEventLog;
  /** Webhooks, their deliveries and the fan-out's positions (issue 23, ADR 0128). */
  readonly webhooks: WebhookStore;
  /** Resolves when the backend answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Versions of the schema migrations applied when this store was opened. */
  readonly migrationsAppliedAtOpen: readonly number[];
  /** Applies migrations still pending (normally none: opening applies them). */
  migrate(): Promise<readonly number[]>;
  close(): Promise<void>;
}

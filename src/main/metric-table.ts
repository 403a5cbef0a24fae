import type {
  ClickCounters,
  CodeCounters,
  MetricRow,
  ProtectionCounters,
} from '../observability/metrics.js';
import type { KnownCodes } from '../services/redirect/known-codes.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';

/** What the redirect rows read: the resolver (its `stats`) and what sits beside it. */
export interface RedirectSources {
  readonly resolver: RedirectResolver;
  readonly knownCodes: KnownCodes;
  /** 0 closed, 1 half-open, 2 open; null without L2. */
  readonly breakerState: () => number | null;
}

/** What each group of rows reads at a scrape. */
export interface MetricSources {
  readonly redirect: RedirectSources;
  /** The click buffer's side: `hop serve` with analytics on, and `hop worker`. */
  readonly clicks: ClickCounters;
  /** Only where an aggregator runs (embedded, or `hop worker`). */
  readonly aggregator: ClickCounters;
  readonly codes: CodeCounters;
  readonly protection: ProtectionCounters;
}

type Row = MetricRow<MetricSources>;

/**
 * Every metric hop shows besides the process's own and redirect latency (SPEC §8): name,
 * help, type, labels and where its value is read, once. Values are plain numbers read when
 * scraped, never kept by prom-client: the redirect path only adds to its stats.
 */
export const METRIC_TABLE: readonly Row[] = [
  // Clicks (SPEC §6).
  {
    group: 'clicks',
    name: 'hop_click_buffer_depth',
    help: 'Clicks buffered, not yet accepted by the sink.',
    type: 'gauge',
    read: (c) => c.bufferDepth,
  },
  {
    group: 'clicks',
    name: 'hop_click_events_dropped_total',
    help: 'Clicks dropped because the buffer was full.',
    type: 'counter',
    read: (c) => c.dropped,
  },
  {
    group: 'clicks',
    name: 'hop_click_events_flushed_total',
    help: 'Clicks the sink accepted.',
    type: 'counter',
    read: (c) => c.flushed,
  },
  {
    group: 'clicks',
    name: 'hop_click_flush_failures_total',
    help: 'Sends to the sink that failed (the clicks stay buffered).',
    type: 'counter',
    read: (c) => c.flushFailures,
  },
  {
    group: 'aggregator',
    name: 'hop_click_events_folded_total',
    help: 'Clicks folded into the hourly aggregates.',
    type: 'counter',
    read: (c) => c.folded,
  },
  {
    group: 'aggregator',
    name: 'hop_click_events_duplicate_total',
    help: 'Clicks delivered again and not counted twice.',
    type: 'counter',
    read: (c) => c.duplicates,
  },
  {
    group: 'aggregator',
    name: 'hop_click_aggregation_lag_seconds',
    help: 'Age of the oldest click in the last fold; 0 when nothing waits.',
    type: 'gauge',
    read: (c) => c.lagSeconds,
  },
  {
    group: 'aggregator',
    name: 'hop_click_log_spooled_folds',
    help: 'Folds whose click events wait to be written out at low priority (ADR 0132; visits: ADR 0147).',
    type: 'gauge',
    read: (c) => c.spooledFolds,
  },
  // Codes, creates and the sweeper (SPEC §2, §7).
  {
    group: 'codes',
    name: 'hop_guess_probability',
    help: 'Active links / size of the code space: the chance a random guess hits a link (SPEC §2).',
    type: 'gauge',
    read: (c) => c.guessProbability,
  },
  {
    group: 'codes',
    name: 'hop_code_length',
    help: 'Characters in codes generated now.',
    type: 'gauge',
    read: (c) => c.codeLength,
  },
  {
    group: 'codes',
    name: 'hop_code_pool_remaining',
    help: 'Codes the pool has left: in this process plus unclaimed in the file at the last claim.',
    type: 'gauge',
    read: (c) => c.poolRemaining,
  },
  {
    group: 'codes',
    name: 'hop_code_pool_exhausted_total',
    help: 'Creates refused because the code pool was used up.',
    type: 'counter',
    read: (c) => c.poolExhaustions,
  },
  {
    group: 'codes',
    name: 'hop_links_created_total',
    help: 'Links created.',
    type: 'counter',
    read: (c) => c.linksCreated,
  },
  {
    group: 'codes',
    name: 'hop_create_store_round_trips_total',
    help: 'Store round trips made by creates: inserts tried, idempotency reads, code leases.',
    type: 'counter',
    read: (c) => c.createStoreRoundTrips,
  },
  {
    group: 'codes',
    name: 'hop_sweeps_total',
    help: 'Sweeper runs finished.',
    type: 'counter',
    read: (c) => c.sweeps,
  },
  {
    group: 'codes',
    name: 'hop_sweep_failures_total',
    help: 'Sweeper runs that failed.',
    type: 'counter',
    read: (c) => c.sweepFailures,
  },
  {
    group: 'codes',
    name: 'hop_swept_expired_total',
    help: 'Links the sweeper marked expired.',
    type: 'counter',
    read: (c) => c.sweptExpired,
  },
  {
    group: 'codes',
    name: 'hop_reclaimed_codes_total',
    help: 'Generated codes of expired or deleted links returned to circulation.',
    type: 'counter',
    read: (c) => c.reclaimedCodes,
  },
  {
    group: 'codes',
    name: 'hop_key_use_write_failures_total',
    help: "Writes of an API key's last use that failed (logged; the request went on).",
    type: 'counter',
    read: (c) => c.keyUseWriteFailures,
  },
  // Abuse resistance (SPEC §7).
  {
    group: 'protection',
    name: 'hop_in_flight_requests',
    help: 'Requests being answered now.',
    type: 'gauge',
    read: (c) => c.inFlight,
  },
  {
    group: 'protection',
    name: 'hop_event_loop_lag_seconds',
    help: 'How late a 100 ms timer fires, averaged over about a second (load shedding reads it).',
    type: 'gauge',
    read: (c) => c.eventLoopLagSeconds,
  },
  {
    group: 'protection',
    name: 'hop_requests_shed_total',
    help: 'Requests refused with 503 by load shedding: creates, analytics and admin (kind="api"), redirects that needed a read (kind="redirect").',
    type: 'counter',
    read: {
      label: 'kind',
      values: { api: (c) => c.shedRequests, redirect: (c) => c.shedRedirects },
    },
  },
  {
    group: 'protection',
    name: 'hop_scanner_clients_throttled',
    help: 'Clients in a scanner cool-down now (or served and not seen since).',
    type: 'gauge',
    read: (c) => c.throttledClients,
  },
  {
    group: 'protection',
    name: 'hop_scanner_throttles_total',
    help: 'Clients throttled for asking for too many unknown codes.',
    type: 'counter',
    read: (c) => c.throttledClientsTotal,
  },
  {
    group: 'protection',
    name: 'hop_scanner_refused_total',
    help: 'Redirect requests answered 429 because their client was throttled.',
    type: 'counter',
    read: (c) => c.throttledRequests,
  },
  // The redirect path's caches and filter (SPEC §5).
  {
    group: 'redirect',
    name: 'hop_l1_requests_total',
    help: 'L1 lookups by result.',
    type: 'counter',
    read: {
      label: 'result',
      values: { hit: (r) => r.resolver.stats.l1Hits, miss: (r) => r.resolver.stats.l1Misses },
    },
  },
  {
    group: 'redirect',
    name: 'hop_l2_requests_total',
    help: 'L2 (Redis) lookups by result; failures and an open breaker count as misses.',
    type: 'counter',
    read: {
      label: 'result',
      values: { hit: (r) => r.resolver.stats.l2Hits, miss: (r) => r.resolver.stats.l2Misses },
    },
  },
  {
    group: 'redirect',
    name: 'hop_coalesced_reads_total',
    help: 'Redirect misses that joined a store read already in flight for the same code.',
    type: 'counter',
    read: (r) => r.resolver.stats.coalescedReads,
  },
  {
    group: 'redirect',
    name: 'hop_redirect_reads_skipped_total',
    help: 'Redirect misses for codes the known-codes filter rules out: 404 without asking L2 or the store.',
    type: 'counter',
    read: (r) => r.resolver.stats.readsSkipped,
  },
  {
    group: 'redirect',
    name: 'hop_stale_reads_total',
    help: 'Redirect reads refused for being older than a change this instance knows of: from L2 (tier="l2": read from the store instead) or from a lagging replica (tier="store": read again from the primary).',
    type: 'counter',
    read: {
      label: 'tier',
      values: {
        l2: (r) => r.resolver.stats.l2Stale,
        store: (r) => r.resolver.stats.staleStoreReads,
      },
    },
  },
  {
    group: 'redirect',
    name: 'hop_blocked_redirects_total',
    help: 'Redirects refused because the destination domain is on the blocklist.',
    type: 'counter',
    read: (r) => r.resolver.stats.blockedRedirects,
  },
  {
    group: 'redirect',
    name: 'hop_known_codes_false_positives_total',
    help: 'Misses the known-codes filter let through that the store did not have.',
    type: 'counter',
    read: (r) => r.resolver.stats.filterFalsePositives,
  },
  {
    group: 'redirect',
    name: 'hop_known_codes',
    help: 'Codes added to the known-codes filter (a code whose bits were all set already is not counted).',
    type: 'gauge',
    read: (r) => r.knownCodes.count,
  },
  {
    group: 'redirect',
    name: 'hop_known_codes_bytes',
    help: 'Memory held by the known-codes filter.',
    type: 'gauge',
    read: (r) => r.knownCodes.byteLength,
  },
  {
    group: 'redirect',
    name: 'hop_known_codes_ready',
    help: '1 once every stored code is loaded into the filter; until then every miss reads the store.',
    type: 'gauge',
    read: (r) => (r.knownCodes.ready ? 1 : 0),
  },
  {
    group: 'redirect',
    name: 'hop_l1_hit_ratio',
    help: 'L1 hits / lookups since start.',
    type: 'gauge',
    read: ({ resolver: { stats } }) => {
      const lookups = stats.l1Hits + stats.l1Misses;
      return lookups === 0 ? 0 : stats.l1Hits / lookups;
    },
  },
  {
    group: 'redirect',
    name: 'hop_l2_breaker_state',
    help: 'Circuit breaker in front of Redis: 0 closed, 1 half-open, 2 open (absent without L2).',
    type: 'gauge',
    read: (r) => r.breakerState(),
  },
  {
    group: 'redirect',
    name: 'hop_l1_entries',
    help: 'Entries held by L1.',
    type: 'gauge',
    read: (r) => r.resolver.cachedEntries,
  },
];

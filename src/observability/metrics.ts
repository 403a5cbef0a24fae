import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { LeanHistogram } from './lean-histogram.js';
import { RecentRedirectsWindow, type RecentRedirects } from './recent-redirects.js';

/** The numbers the redirect path keeps as plain counters; read only when scraped. */
export interface RedirectCounters {
  readonly l1Hits: number;
  readonly l1Misses: number;
  readonly coalescedReads: number;
  readonly l1Size: number;
  readonly l2Hits: number;
  readonly l2Misses: number;
  readonly readsSkipped: number;
  readonly filterFalsePositives: number;
  /** L2 entries older than a version known here (read from the store instead). */
  readonly l2Stale: number;
  /** Store reads older than a version known here (a lagging replica), read again from the primary. */
  readonly staleStoreReads: number;
  readonly knownCodes: number;
  readonly knownCodesBytes: number;
  readonly knownCodesReady: boolean;
  /** 0 closed, 1 half-open, 2 open; null without L2. */
  readonly breakerState: number | null;
  /** Redirects refused because the destination's domain is on the blocklist. */
  readonly blockedRedirects: number;
}

/** The click pipeline's plain counters (SPEC §6, §8); read only when scraped. */
export interface ClickCounters {
  /** Clicks buffered in this process, not yet accepted by the sink; null without a buffer. */
  readonly bufferDepth: number | null;
  readonly dropped: number;
  readonly flushed: number;
  readonly flushFailures: number;
  /** Null where no aggregator runs (scaled out, `hop serve` leaves it to `hop worker`). */
  readonly folded: number | null;
  readonly duplicates: number;
  readonly lagSeconds: number;
}

/** Code generation, creates and the sweeper (SPEC §8); read only when scraped. */
export interface CodeCounters {
  /** Active links / code space; null before the first census. */
  readonly guessProbability: number | null;
  readonly codeLength: number;
  /** Codes the pool has left (memory plus file); null for other strategies. */
  readonly poolRemaining: number | null;
  readonly poolExhaustions: number;
  readonly linksCreated: number;
  /** Inserts tried, idempotency reads and the generator's leases, for every create. */
  readonly createStoreRoundTrips: number;
  readonly sweeps: number;
  readonly sweepFailures: number;
  readonly sweptExpired: number;
  readonly reclaimedCodes: number;
}

/** Abuse resistance (SPEC §7); read only when scraped. */
export interface ProtectionCounters {
  readonly inFlight: number;
  readonly eventLoopLagSeconds: number;
  /** Requests other than redirects refused by load shedding. */
  readonly shedRequests: number;
  /** Redirects refused by load shedding (they needed a read). */
  readonly shedRedirects: number;
  readonly throttledClients: number;
  readonly throttledClientsTotal: number;
  readonly throttledRequests: number;
}

export interface Metrics {
  /** Records one redirect: how it ended and when it started (performance.now()). */
  observeRedirect(outcome: string, startedAt: number): void;
  render(): Promise<{ contentType: string; body: string }>;
  /** Redirects per second and their p99 over the last seconds (the console's dashboard). */
  recentRedirects(): RecentRedirects;
  /** Stops the once-a-second sampling behind recentRedirects. */
  stop(): void;
}

export const REDIRECT_OUTCOMES = [
  'l1',
  'l2',
  'store',
  'not_found',
  'invalid',
  'error',
  'throttled',
  'shed',
] as const;
type RedirectOutcomeLabel = (typeof REDIRECT_OUTCOMES)[number];

/**
 * Prometheus metrics (SPEC §8). Redirect latency is a histogram by outcome whose children
 * are bound once, so an observation is a lookup and an add, nothing more.
 */
export function createMetrics(
  counters: () => RedirectCounters,
  clickCounters: (() => ClickCounters) | null,
  codeCounters: (() => CodeCounters) | null = null,
  protectionCounters: (() => ProtectionCounters) | null = null,
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hop_' });
  if (clickCounters !== null) registerClickMetrics(registry, clickCounters);
  if (codeCounters !== null) registerCodeMetrics(registry, codeCounters);
  if (protectionCounters !== null) registerProtectionMetrics(registry, protectionCounters);
  const duration = new LeanHistogram<RedirectOutcomeLabel>({
    name: 'hop_redirect_duration_seconds',
    help: 'Time to answer a redirect, by outcome (l1 hit, store read, not found, invalid code).',
    label: 'outcome',
    values: REDIRECT_OUTCOMES,
    bounds: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registry,
  });

  const readAtScrape = scrapeReader(registry, counters);
  /** A counter of lookups by result, read from the plain counters at scrape time. */
  const hitMissCounter = (
    name: string,
    help: string,
    pick: (c: RedirectCounters) => [number, number],
  ) => {
    labelledCounter(registry, counters, name, help, 'result', {
      hit: (c) => pick(c)[0],
      miss: (c) => pick(c)[1],
    });
  };
  hitMissCounter('hop_l1_requests_total', 'L1 lookups by result.', (c) => [c.l1Hits, c.l1Misses]);
  hitMissCounter(
    'hop_l2_requests_total',
    'L2 (Redis) lookups by result; failures and an open breaker count as misses.',
    (c) => [c.l2Hits, c.l2Misses],
  );
  readAtScrape(
    'counter',
    'hop_coalesced_reads_total',
    'Redirect misses that joined a store read already in flight for the same code.',
    (c) => c.coalescedReads,
  );
  readAtScrape(
    'counter',
    'hop_redirect_reads_skipped_total',
    'Redirect misses for codes the known-codes filter rules out: 404 without asking L2 or the store.',
    (c) => c.readsSkipped,
  );
  labelledCounter(
    registry,
    counters,
    'hop_stale_reads_total',
    'Redirect reads refused for being older than a change this instance knows of: from L2 (tier="l2": read from the store instead) or from a lagging replica (tier="store": read again from the primary).',
    'tier',
    { l2: (c) => c.l2Stale, store: (c) => c.staleStoreReads },
  );
  readAtScrape(
    'counter',
    'hop_blocked_redirects_total',
    'Redirects refused because the destination domain is on the blocklist.',
    (c) => c.blockedRedirects,
  );
  readAtScrape(
    'counter',
    'hop_known_codes_false_positives_total',
    'Misses the known-codes filter let through that the store did not have.',
    (c) => c.filterFalsePositives,
  );
  readAtScrape(
    'gauge',
    'hop_known_codes',
    'Codes added to the known-codes filter (a code whose bits were all set already is not counted).',
    (c) => c.knownCodes,
  );
  readAtScrape(
    'gauge',
    'hop_known_codes_bytes',
    'Memory held by the known-codes filter.',
    (c) => c.knownCodesBytes,
  );
  readAtScrape(
    'gauge',
    'hop_known_codes_ready',
    '1 once every stored code is loaded into the filter; until then every miss reads the store.',
    (c) => (c.knownCodesReady ? 1 : 0),
  );
  new Gauge({
    name: 'hop_l1_hit_ratio',
    help: 'L1 hits / lookups since start.',
    registers: [registry],
    collect() {
      const now = counters();
      const total = now.l1Hits + now.l1Misses;
      this.set(total === 0 ? 0 : now.l1Hits / total);
    },
  });
  readAtScrape(
    'gauge',
    'hop_l2_breaker_state',
    'Circuit breaker in front of Redis: 0 closed, 1 half-open, 2 open (absent without L2).',
    (c) => c.breakerState,
  );
  readAtScrape('gauge', 'hop_l1_entries', 'Entries held by L1.', (c) => c.l1Size);

  const recent = new RecentRedirectsWindow(duration, new Set(['l1', 'l2', 'store'] as const));

  return {
    observeRedirect(outcome, startedAt) {
      const seconds = (performance.now() - startedAt) / 1000;
      duration.observe(outcome as RedirectOutcomeLabel, seconds);
    },
    render: () => render(registry),
    recentRedirects: () => recent.read(),
    stop: () => {
      recent.stop();
    },
  };
}

/**
 * The click pipeline's metrics on `registry`: `hop serve` shows the buffer side (and the
 * aggregator's when embedded), `hop worker` the aggregator's.
 */
function registerClickMetrics(registry: Registry, counters: () => ClickCounters): void {
  const scraped = scrapeReader(registry, counters);
  scraped(
    'gauge',
    'hop_click_buffer_depth',
    'Clicks buffered, not yet accepted by the sink.',
    (c) => c.bufferDepth,
  );
  scraped(
    'counter',
    'hop_click_events_dropped_total',
    'Clicks dropped because the buffer was full.',
    (c) => c.dropped,
  );
  scraped(
    'counter',
    'hop_click_events_flushed_total',
    'Clicks the sink accepted.',
    (c) => c.flushed,
  );
  scraped(
    'counter',
    'hop_click_flush_failures_total',
    'Sends to the sink that failed (the clicks stay buffered).',
    (c) => c.flushFailures,
  );
  // Aggregator metrics only where an aggregator runs.
  if (counters().folded === null) return;
  scraped(
    'counter',
    'hop_click_events_folded_total',
    'Clicks folded into the hourly aggregates.',
    (c) => c.folded,
  );
  scraped(
    'counter',
    'hop_click_events_duplicate_total',
    'Clicks delivered again and not counted twice.',
    (c) => c.duplicates,
  );
  scraped(
    'gauge',
    'hop_click_aggregation_lag_seconds',
    'Age of the oldest click in the last fold; 0 when nothing waits.',
    (c) => c.lagSeconds,
  );
}

function registerProtectionMetrics(registry: Registry, counters: () => ProtectionCounters): void {
  const scraped = scrapeReader(registry, counters);
  scraped('gauge', 'hop_in_flight_requests', 'Requests being answered now.', (c) => c.inFlight);
  scraped(
    'gauge',
    'hop_event_loop_lag_seconds',
    'How late a 100 ms timer fires, averaged over about a second (load shedding reads it).',
    (c) => c.eventLoopLagSeconds,
  );
  labelledCounter(
    registry,
    counters,
    'hop_requests_shed_total',
    'Requests refused with 503 by load shedding: creates, analytics and admin (kind="api"), redirects that needed a read (kind="redirect").',
    'kind',
    { api: (c) => c.shedRequests, redirect: (c) => c.shedRedirects },
  );
  scraped(
    'gauge',
    'hop_scanner_clients_throttled',
    'Clients in a scanner cool-down now (or served and not seen since).',
    (c) => c.throttledClients,
  );
  scraped(
    'counter',
    'hop_scanner_throttles_total',
    'Clients throttled for asking for too many unknown codes.',
    (c) => c.throttledClientsTotal,
  );
  scraped(
    'counter',
    'hop_scanner_refused_total',
    'Redirect requests answered 429 because their client was throttled.',
    (c) => c.throttledRequests,
  );
}

function registerCodeMetrics(registry: Registry, counters: () => CodeCounters): void {
  const scraped = scrapeReader(registry, counters);
  scraped(
    'gauge',
    'hop_guess_probability',
    'Active links / size of the code space: the chance a random guess hits a link (SPEC §2).',
    (c) => c.guessProbability,
  );
  scraped('gauge', 'hop_code_length', 'Characters in codes generated now.', (c) => c.codeLength);
  scraped(
    'gauge',
    'hop_code_pool_remaining',
    'Codes the pool has left: in this process plus unclaimed in the file at the last claim.',
    (c) => c.poolRemaining,
  );
  scraped(
    'counter',
    'hop_code_pool_exhausted_total',
    'Creates refused because the code pool was used up.',
    (c) => c.poolExhaustions,
  );
  scraped('counter', 'hop_links_created_total', 'Links created.', (c) => c.linksCreated);
  scraped(
    'counter',
    'hop_create_store_round_trips_total',
    'Store round trips made by creates: inserts tried, idempotency reads, code leases.',
    (c) => c.createStoreRoundTrips,
  );
  scraped('counter', 'hop_sweeps_total', 'Sweeper runs finished.', (c) => c.sweeps);
  scraped(
    'counter',
    'hop_sweep_failures_total',
    'Sweeper runs that failed.',
    (c) => c.sweepFailures,
  );
  scraped(
    'counter',
    'hop_swept_expired_total',
    'Links the sweeper marked expired.',
    (c) => c.sweptExpired,
  );
  scraped(
    'counter',
    'hop_reclaimed_codes_total',
    'Generated codes of expired or deleted links returned to circulation.',
    (c) => c.reclaimedCodes,
  );
}

/**
 * Registers counters and gauges on `registry` whose value is picked from `counters()` at
 * each scrape; a metric is absent while its pick is null.
 */
/** A counter with one label, each value read from the plain counters at scrape time. */
function labelledCounter<C>(
  registry: Registry,
  counters: () => C,
  name: string,
  help: string,
  label: string,
  values: Readonly<Record<string, (c: C) => number>>,
): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      const c = counters();
      this.reset();
      for (const [value, pick] of Object.entries(values)) this.labels(value).inc(pick(c));
    },
  });
}

function scrapeReader<C>(registry: Registry, counters: () => C) {
  return (
    kind: 'counter' | 'gauge',
    name: string,
    help: string,
    pick: (c: C) => number | null,
  ): void => {
    const options = { name, help, registers: [registry] };
    // A counter's value is set by reset-then-inc: prom-client counters only go up.
    if (kind === 'counter') {
      new Counter({
        ...options,
        collect() {
          this.reset();
          const value = pick(counters());
          if (value !== null) this.inc(value);
        },
      });
    } else {
      new Gauge({
        ...options,
        collect() {
          this.reset();
          const value = pick(counters());
          if (value !== null) this.set(value);
        },
      });
    }
  };
}

function render(registry: Registry): Promise<{ contentType: string; body: string }> {
  return registry.metrics().then((body) => ({ contentType: registry.contentType, body }));
}

/** `hop worker`'s metrics: the process's own and the aggregator's. */
export function createWorkerMetrics(counters: () => ClickCounters): Pick<Metrics, 'render'> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hop_' });
  registerClickMetrics(registry, counters);
  return { render: () => render(registry) };
}

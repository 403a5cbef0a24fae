import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
// Not the global `performance`, an accessor: a getter call at each use (BENCHMARKS.md, 2026-12-07).
import { performance } from 'node:perf_hooks';
import { LeanHistogram } from './lean-histogram.js';
import { RecentRedirectsWindow, type RecentRedirects } from './recent-redirects.js';

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
  /**
   * Folds whose click events wait in the spool to be written out (ADR 0132; visits are
   * written by the fold, ADR 0147): the integrations' backlog, which grows while redirects
   * take the whole CPU. 0 where folds write them themselves.
   */
  readonly spooledFolds: number;
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
  /** Writes of a key's last use the store refused (issue 22, ADR 0118). */
  readonly keyUseWriteFailures: number;
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

/**
 * One row of a metric table: a Prometheus counter or gauge whose value is read from plain
 * numbers at each scrape, never kept by prom-client between scrapes. `Sources` is what the
 * table's rows read, by group; a row is registered only where its group's source is given.
 */
export type MetricRow<Sources> = {
  [Group in keyof Sources]: MetricRowOf<Group, Sources[Group]>;
}[keyof Sources];

interface MetricRowOf<Group, Source> {
  readonly group: Group;
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge';
  /**
   * Its value now (null leaves an unlabelled gauge or counter at zero); or, with `label`,
   * one value per label value.
   */
  readonly read:
    | ((source: Source) => number | null)
    | {
        readonly label: string;
        readonly values: Readonly<Record<string, (source: Source) => number>>;
      };
}

/** Where each group's rows read their values at a scrape; a group left out or null is not shown. */
export type MetricSourceReaders<Sources> = {
  readonly [Group in keyof Sources]?: (() => Sources[Group]) | null;
};

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
 * Prometheus metrics (SPEC §8): the process's own, redirect latency, and a table of rows.
 * Redirect latency is a histogram by outcome whose children are bound once, so an
 * observation is a lookup and an add, nothing more.
 */
export function createMetrics<Sources>(
  table: readonly MetricRow<Sources>[],
  sources: MetricSourceReaders<Sources>,
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hop_' });
  const duration = new LeanHistogram<RedirectOutcomeLabel>({
    name: 'hop_redirect_duration_seconds',
    help: 'Time to answer a redirect, by outcome (l1 hit, store read, not found, invalid code).',
    label: 'outcome',
    values: REDIRECT_OUTCOMES,
    bounds: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registry,
  });
  registerRows(registry, table, sources);
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

/** `hop worker`'s metrics: the process's own and the rows of the groups it is given. */
export function createWorkerMetrics<Sources>(
  table: readonly MetricRow<Sources>[],
  sources: MetricSourceReaders<Sources>,
): Pick<Metrics, 'render'> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hop_' });
  registerRows(registry, table, sources);
  return { render: () => render(registry) };
}

/** Each row whose group has a source becomes a counter or gauge read at scrape time. */
function registerRows<Sources>(
  registry: Registry,
  table: readonly MetricRow<Sources>[],
  sources: MetricSourceReaders<Sources>,
): void {
  for (const row of table as readonly MetricRowOf<keyof Sources, unknown>[]) {
    const source = sources[row.group] as (() => unknown) | null | undefined;
    if (source !== undefined && source !== null) registerRow(registry, row, source);
  }
}

function registerRow<Source>(
  registry: Registry,
  row: MetricRowOf<unknown, Source>,
  source: () => Source,
): void {
  const { name, help, type, read } = row;
  if (typeof read !== 'function') {
    // A counter with one label, each value read from the source.
    new Counter({
      name,
      help,
      labelNames: [read.label],
      registers: [registry],
      collect() {
        const now = source();
        this.reset();
        for (const [value, pick] of Object.entries(read.values)) this.labels(value).inc(pick(now));
      },
    });
    return;
  }
  const options = { name, help, registers: [registry] };
  // A counter's value is set by reset-then-inc: prom-client counters only go up.
  if (type === 'counter') {
    new Counter({
      ...options,
      collect() {
        this.reset();
        const value = read(source());
        if (value !== null) this.inc(value);
      },
    });
  } else {
    new Gauge({
      ...options,
      collect() {
        this.reset();
        const value = read(source());
        if (value !== null) this.set(value);
      },
    });
  }
}

function render(registry: Registry): Promise<{ contentType: string; body: string }> {
  return registry.metrics().then((body) => ({ contentType: registry.contentType, body }));
}

import type { CodeGenerator } from '../../ports/code-generator.js';
import type { GuessBound } from '../codes/guess-bound.js';
import type { CreateCounters } from '../links/create-counters.js';

/** The sweeper's running totals since start. */
export interface SweepTotals {
  runs: number;
  failures: number;
  expired: number;
  reclaimed: number;
  /** Epoch ms of the last finished run; null before the first. */
  lastRunAt: number | null;
}

/** Adds one finished sweep to the totals. */
export function addSweepReport(
  totals: SweepTotals,
  report: { readonly expired: number; readonly reclaimed: number },
  atMs: number,
): void {
  totals.runs++;
  totals.expired += report.expired;
  totals.reclaimed += report.reclaimed;
  totals.lastRunAt = atMs;
}

/**
 * What `GET /v1/stats` shows an admin (ADR 0050): the code space and what creates cost. The
 * links by state come from the census in the store instead (ADR 0100).
 */
export interface ServiceStats {
  readonly strategy: string;
  readonly codeLength: number;
  readonly alphabetSize: number;
  readonly codeSpace: number;
  readonly guessProbability: number | null;
  readonly guessBound: number;
  /** True when the probability is over the bound and the strategy cannot lengthen codes. */
  readonly overBound: boolean;
  readonly poolRemaining: number | null;
  readonly linksCreated: number;
  /** Conditional inserts tried: more than links created when generated codes were taken. */
  readonly insertAttempts: number;
  readonly createStoreRoundTrips: number;
  readonly sweeps: Readonly<SweepTotals>;
}

export interface ServiceStatsSources {
  readonly generator: CodeGenerator;
  readonly guessBound: GuessBound;
  readonly createCounters: CreateCounters;
  readonly poolRemaining: () => number | null;
  readonly sweeps: Readonly<SweepTotals>;
}

/** Reads every source once; cheap enough to call per request or per scrape. */
export function readServiceStats(sources: ServiceStatsSources): ServiceStats {
  const { generator, guessBound, createCounters } = sources;
  return {
    strategy: generator.strategy,
    codeLength: generator.length,
    alphabetSize: generator.alphabetSize,
    codeSpace: guessBound.codeSpace,
    guessProbability: guessBound.probability,
    guessBound: guessBound.bound,
    overBound: guessBound.overBound,
    poolRemaining: sources.poolRemaining(),
    linksCreated: createCounters.created,
    insertAttempts: createCounters.insertAttempts,
    createStoreRoundTrips:
      createCounters.insertAttempts + createCounters.idempotencyReads + generator.storeRoundTrips,
    sweeps: { ...sources.sweeps },
  };
}

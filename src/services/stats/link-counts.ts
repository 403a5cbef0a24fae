import type { Clock } from '../../ports/clock.js';
import type { LinkCensus, LinkCountSnapshot } from '../../ports/link-census.js';
import type { CensusResult } from '../codes/guess-bound.js';

export type { LinkCountSnapshot } from '../../ports/link-census.js';

/** A snapshot younger than this is never counted again on a read, however cheap the census. */
export const MIN_RECOUNT_AGE_MS = 1_000;
/**
 * A read counts again once the snapshot is older than this many times what its census
 * took: counting then costs the store at most 1% of its time while someone looks
 * (ADR 0100). 32 links: every second; 10 million links counted in 10 s: every 17 minutes.
 */
export const RECOUNT_COST_FACTOR = 100;

export interface LinkCountsOptions {
  /** Where the newest census is kept for every instance. */
  readonly census: Pick<LinkCensus, 'readSnapshot' | 'saveSnapshot'>;
  /** One census walk (the guess bound's, which keeps its own count from it). */
  readonly count: () => Promise<CensusResult>;
  readonly clock: Clock;
  /** A monotonic reading in ms (performance.now), to time the walk. */
  readonly elapsedMs: () => number;
}

/**
 * Links by state as people see them (the dashboard, `/v1/stats`): the census's snapshot,
 * kept in the store so every instance answers the same counts with the same `countedAt`,
 * counted again on a read once it is old for what a census costs (ADR 0100).
 */
export class LinkCounts {
  readonly #options: LinkCountsOptions;
  #recounting: Promise<LinkCountSnapshot> | null = null;

  constructor(options: LinkCountsOptions) {
    this.#options = options;
  }

  /** Counts now and saves the snapshot; concurrent calls share one census. */
  recount(): Promise<LinkCountSnapshot> {
    this.#recounting ??= this.#recount().finally(() => {
      this.#recounting = null;
    });
    return this.#recounting;
  }

  /** The newest snapshot, counted again first when there is none or it is due. */
  async current(): Promise<LinkCountSnapshot> {
    const saved = await this.#options.census.readSnapshot();
    if (saved !== null && !isRecountDue(saved, this.#options.clock.now())) return saved;
    return this.recount();
  }

  async #recount(): Promise<LinkCountSnapshot> {
    const started = this.#options.elapsedMs();
    const { counts, countedAt } = await this.#options.count();
    const snapshot = { ...counts, countedAt, durationMs: this.#options.elapsedMs() - started };
    await this.#options.census.saveSnapshot(snapshot);
    // Another instance may have saved a later count meanwhile: answer what every instance reads.
    return (await this.#options.census.readSnapshot()) ?? snapshot;
  }
}

/** True once `snapshot` is older than its census's cost allows (ADR 0100). */
export function isRecountDue(snapshot: LinkCountSnapshot, nowMs: number): boolean {
  const age = nowMs - snapshot.countedAt;
  return age >= Math.max(MIN_RECOUNT_AGE_MS, RECOUNT_COST_FACTOR * snapshot.durationMs);
}

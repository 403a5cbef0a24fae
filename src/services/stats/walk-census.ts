import type { LinkCensus, LinkCountsByState } from '../../ports/link-census.js';

export interface CensusWalk {
  readonly census: LinkCensus;
  /** Links per census read: a few milliseconds of the store each. */
  readonly sliceSize: number;
  /** Lets other work run between census reads. */
  readonly yieldBetweenSlices: () => Promise<void>;
}

/**
 * Counts every link by the state a reader sees at `nowMs`, a slice of ids at a time. Exact
 * when nothing is written during the walk (a store of one slice is one statement); a link
 * written meanwhile is counted by the state its slice saw.
 */
export async function walkCensus(walk: CensusWalk, nowMs: number): Promise<LinkCountsByState> {
  const counts = { total: 0, active: 0, disabled: 0, expired: 0, deleted: 0 };
  let afterId: string | null = null;
  for (;;) {
    const slice = await walk.census.countSlice(nowMs, afterId, walk.sliceSize);
    counts.total += slice.total;
    counts.active += slice.active;
    counts.disabled += slice.disabled;
    counts.expired += slice.expired;
    counts.deleted += slice.deleted;
    if (slice.total < walk.sliceSize || slice.lastId === null) return counts;
    afterId = slice.lastId;
    await walk.yieldBetweenSlices();
  }
}

/** Links by the state a reader sees (expiry checked against the census's clock reading). */
export interface LinkCountsByState {
  /** Every link still stored, of every state (reclaimed rows are gone). */
  readonly total: number;
  readonly active: number;
  readonly disabled: number;
  /** Marked expired by the sweeper, or active with an expiry already passed. */
  readonly expired: number;
  readonly deleted: number;
}

/** One slice of the census, walked by id so no single read is long. */
export interface CensusSlice extends LinkCountsByState {
  /** The last id of the slice, where the next slice starts; null when it was empty. */
  readonly lastId: string | null;
}

/** A finished census as the store keeps it for every instance (ADR 0100). */
export interface LinkCountSnapshot extends LinkCountsByState {
  /** The clock reading the census counted at (epoch ms): exact as of then. */
  readonly countedAt: number;
  /** How long the walk took, which decides how often it may run again. */
  readonly durationMs: number;
}

/**
 * Counts links by state a slice at a time (SPEC §2: the guess probability; ADR 0100: the
 * counts the dashboard and `/v1/stats` show), and keeps the newest count in the store,
 * where every instance reads the same one.
 */
export interface LinkCensus {
  /** Links with id after `afterId` (null: from the first), at most `limit` of them. */
  countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice>;
  /** The newest census saved by any process, or null before the first. */
  readSnapshot(): Promise<LinkCountSnapshot | null>;
  /** Saves `snapshot` unless the store already holds one counted later. */
  saveSnapshot(snapshot: LinkCountSnapshot): Promise<void>;
}

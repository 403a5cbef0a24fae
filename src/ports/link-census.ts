/** One slice of a count of active links, walked by id so no single read is long. */
export interface CensusSlice {
  /** Links in the slice, of every state. */
  readonly seen: number;
  /** Of those, the ones redirecting at the given time. */
  readonly active: number;
  /** The last id of the slice, where the next slice starts; null when it was empty. */
  readonly lastId: string | null;
}

/** Counts what the guess probability needs (SPEC §2), a slice at a time. */
export interface LinkCensus {
  /** Links with id after `afterId` (null: from the first), at most `limit` of them. */
  countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice>;
}

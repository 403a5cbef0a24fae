/** A block of a named counter leased to one process: the values `[first, end)`. */
export interface SequenceLease {
  readonly first: number;
  readonly end: number;
}

/**
 * Named counters shared by every instance on one store (SPEC §2, ADR 0056): the `permutation`
 * strategy's counter and each pool file's offset. A lease advances the counter atomically,
 * so no two processes ever hold overlapping blocks.
 */
export interface SequenceStore {
  /**
   * Advances `name` (created at 0 if missing) by up to `count`, but never past `cap` when
   * given, and returns the block passed over. An empty block (`first === end`) means the
   * counter already stood at `cap`.
   */
  lease(name: string, count: number, cap?: number): Promise<SequenceLease>;
}

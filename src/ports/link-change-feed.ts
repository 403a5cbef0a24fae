/** A link's code and the version a change gave it. */
export interface LinkChange {
  readonly code: string;
  readonly version: number;
}

/**
 * Every change to a link committed to the store, by whichever process made it, in commit
 * order: how a server learns of changes it was not told of (the embedded store's CLI
 * beside `hop serve`). Creates are not in it: the known-codes scan finds those.
 */
export interface LinkChangeFeed {
  /** The position after the newest change: following from here skips what came before. */
  latest(): Promise<number>;
  /** Up to `limit` changes after `cursor`, oldest first, and the position after them. */
  changesAfter(
    cursor: number,
    limit: number,
  ): Promise<{ readonly changes: readonly LinkChange[]; readonly cursor: number }>;
  /** Deletes up to `limit` of the changes made before `olderThanMs`; how many it deleted. */
  forgetBefore(olderThanMs: number, limit: number): Promise<number>;
}

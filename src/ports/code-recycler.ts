/**
 * Where the sweeper returns reclaimed codes (SPEC §7): the `pool` strategy appends them to
 * its pool file; the other strategies need nothing, since a code whose link row is gone is
 * free for the conditional insert again.
 */
export interface CodeRecycler {
  /** Puts `codes` back into circulation; resolves once they are durably there. */
  recycle(codes: readonly string[]): Promise<void>;
}

export const NO_CODE_RECYCLING: CodeRecycler = {
  recycle: () => Promise.resolve(),
};

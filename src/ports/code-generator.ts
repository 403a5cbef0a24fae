/** What a create asks of a code generator: one candidate per insert attempt. */
export interface CodeRequest {
  /** The link's destination (only the `hash` strategy derives its code from it). */
  readonly destination: string;
  /** 0 for the first insert attempt of a create, then 1, 2, ... after each taken code. */
  readonly attempt: number;
}

/**
 * Produces candidate codes (SPEC §2); uniqueness is decided by the store's conditional
 * insert, so a generator may propose a taken code and is then asked again.
 */
export interface CodeGenerator {
  /** The strategy's name, as HOP_CODE_STRATEGY spells it. */
  readonly strategy: string;
  /** Characters in the alphabet of generated codes. */
  readonly alphabetSize: number;
  /** Characters in the codes generated now. */
  readonly length: number;
  /**
   * Generate codes of `length` characters from now on (the guess bound, SPEC §2). Returns
   * false when the strategy cannot (a pool's codes are as wide as its file).
   */
  growTo(length: number): boolean;
  /** A candidate code. Rejects with a HopError when the strategy has none to give. */
  generate(request: CodeRequest): Promise<string>;
  /** Store round trips the generator itself has made (leases), for the metric. */
  readonly storeRoundTrips: number;
}

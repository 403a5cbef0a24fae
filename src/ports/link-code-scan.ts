/**
 * One page of a scan over every code the store holds. A "code" here is a link key (ADR
 * 0115): the code itself on the default domain, `host/code` on any other.
 */
export interface CodeScanPage {
  readonly codes: readonly string[];
  /** Where the next scan continues (opaque). */
  readonly cursor: string | null;
}

/** Every code the store holds, read in pages: the known-codes filter and pool generation. */
export interface LinkCodeScan {
  /**
   * Codes of links of every state, at most `limit`, continuing from `cursor` (null: from
   * the start). Paging on from each returned cursor until a page comes back short returns
   * every code the store held when the scan began; a link committed later is found by a
   * later scan continued from the last cursor, never skipped (a code may come twice). The
   * redirect's filter of known codes loads and catches up this way.
   */
  scanCodes(cursor: string | null, limit: number): Promise<CodeScanPage>;
  /**
   * About how many codes a full scan returns, to size what holds them (the known-codes
   * filter: ADR 0148): never fewer than the links the store holds when asked (it may count
   * rows since deleted), and far cheaper than the scan it precedes.
   */
  estimateCodeCount(): Promise<number>;
}

import type { Link } from '../../../domain/link.js';

/** What became of one peer row (issue 24); told in the order the rows were read. */
export type PeerImportOutcome =
  /** Created with its code kept; `dryRun` imports report this without writing. */
  | {
      readonly kind: 'imported';
      readonly source: string;
      readonly code: string;
      readonly link: Link | null;
    }
  /** Already on hop from an earlier run of the same import: left as it is, counted once. */
  | { readonly kind: 'unchanged'; readonly source: string; readonly code: string }
  /** The row's own fault (a reserved or taken code, a bad destination…): `detail` says what. */
  | {
      readonly kind: 'rejected';
      readonly source: string;
      readonly code: string | null;
      readonly detail: string;
    }
  /** Not the row's fault (the store did not answer): the import stops here. */
  | { readonly kind: 'failed'; readonly source: string; readonly error: unknown };

export interface PeerImportSummary {
  readonly imported: number;
  readonly unchanged: number;
  readonly rejected: number;
  /** Clicks carried over as the imported links' starting counts. */
  readonly clicks: number;
  /** The failure that stopped the import early; null when every row was read. */
  readonly stopped: { readonly source: string; readonly error: unknown } | null;
}

export interface PeerImportOptions {
  /** Checks every row as a real run would and reports it, writing nothing. */
  readonly dryRun: boolean;
  readonly onOutcome?: (outcome: PeerImportOutcome) => void;
}

import type { PeerRow } from '../../domain/peer-link.js';

/**
 * A peer's links as they are read, one PeerRow each, in the source's own order: an opened
 * source (its file or database answered), so a bad source fails before the first row.
 */
export interface PeerRows extends AsyncIterable<PeerRow> {
  /** How far the reading is, for a progress bar: bytes or rows read, out of `total`. */
  progress(): { readonly done: number; readonly total: number };
  /** Lets go of the file or connection; reading to the end (or stopping early) also does. */
  close(): Promise<void>;
}

/**
 * The source cannot be read at all: a missing file, an unreachable database, a missing
 * table. Its message is one line for the operator and never holds a password.
 */
export class PeerSourceError extends Error {
  override readonly name = 'PeerSourceError';
}

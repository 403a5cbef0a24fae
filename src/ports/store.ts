import type { ApiKeyStore } from './api-key-store.js';
import type { ClickStore } from './click-store.js';
import type { LinkCensus } from './link-census.js';
import type { LinkChangeFeed } from './link-change-feed.js';
import type { LinkStore } from './link-store.js';
import type { SequenceStore } from './sequence-store.js';

/** Everything one storage backend provides, opened and closed together. */
export interface Store {
  readonly links: LinkStore;
  readonly keys: ApiKeyStore;
  readonly clicks: ClickStore;
  /** Counters leased in blocks: the permutation counter, pool offsets. */
  readonly sequences: SequenceStore;
  /** Counts active links for the guess probability. */
  readonly census: LinkCensus;
  /**
   * Changes made by every process on a store that has no broadcast of its own (the
   * embedded SQLite file); null where instances tell each other through Redis.
   */
  readonly linkChanges: LinkChangeFeed | null;
  /** Resolves when the backend answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Versions of the schema migrations applied when this store was opened. */
  readonly migrationsAppliedAtOpen: readonly number[];
  /** Applies migrations still pending (normally none: opening applies them). */
  migrate(): Promise<readonly number[]>;
  close(): Promise<void>;
}

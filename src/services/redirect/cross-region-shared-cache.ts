import type { CacheEntry } from '../../ports/near-link-cache.js';
import type { RegionChannel } from '../../ports/region-channel.js';
import type { SharedLinkCache } from '../../ports/shared-link-cache.js';

/**
 * A region's L2 that also tells the other regions (issue 25, ADR 0141). Reads and fills stay
 * in the region (its own Redis): a redirect never crosses a region. A change or a create is
 * applied to the region's L2 and L1s as before, and sent on the region channel; one
 * instance of each other region hears it and applies it to its region's L2, whose broadcast
 * reaches that region's L1s and known codes.
 */
export class CrossRegionSharedLinkCache implements SharedLinkCache {
  readonly #inner: SharedLinkCache;
  readonly #channel: RegionChannel;
  readonly #region: string;

  constructor(inner: SharedLinkCache, channel: RegionChannel, region: string) {
    this.#inner = inner;
    this.#channel = channel;
    this.#region = region;
    channel.onChange((change) => {
      if (change.kind === 'changed') inner.invalidate(change.key, change.version);
      else inner.broadcast(change.key, change.version);
    });
  }

  get(code: string): Promise<CacheEntry | undefined> {
    return this.#inner.get(code);
  }

  set(code: string, entry: CacheEntry): void {
    this.#inner.set(code, entry);
  }

  invalidate(code: string, version: number): void {
    this.#inner.invalidate(code, version);
    this.#channel.publish({ kind: 'changed', key: code, version, region: this.#region });
  }

  broadcast(code: string, version: number): void {
    this.#inner.broadcast(code, version);
    this.#channel.publish({ kind: 'created', key: code, version, region: this.#region });
  }

  onInvalidation(listener: (code: string, version: number) => void): void {
    this.#inner.onInvalidation(listener);
  }

  async close(): Promise<void> {
    await this.#channel.close();
    await this.#inner.close();
  }
}

export interface ScannerThrottleOptions {
  /** Unknown codes a client may ask for within `windowMs`; the next one throttles it. */
  readonly threshold: number;
  readonly windowMs: number;
  /** How long a throttled client stays throttled. */
  readonly coolDownMs: number;
  readonly now: () => number;
  /** Clients remembered at most, in each of the two tables; the oldest are forgotten. */
  readonly maxClients?: number;
}

interface MissWindow {
  count: number;
  readonly startedAt: number;
}

const DEFAULT_MAX_CLIENTS = 100_000;

/**
 * Code scanners (SPEC §7): a client whose misses (unknown, disabled, impossible codes) pass
 * `threshold` within `windowMs` is throttled for `coolDownMs`. Kept in this process: a miss
 * is counted with a map update, never a network round trip, and the check a redirect pays
 * while nobody is throttled is one comparison (`throttling`). Per instance when scaled
 * out, so a scanner spread over N instances gets N times the threshold (ADR 0080).
 */
export class ScannerThrottle {
  readonly #options: ScannerThrottleOptions;
  readonly #maxClients: number;
  readonly #windows = new Map<string, MissWindow>();
  readonly #throttledUntil = new Map<string, number>();
  /** Clients throttled since start. */
  throttledClientsTotal = 0;
  /** Requests answered 429 because their client was throttled. */
  refusedRequests = 0;

  constructor(options: ScannerThrottleOptions) {
    if (!(options.threshold >= 1)) throw new RangeError('threshold must be at least 1');
    this.#options = options;
    this.#maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
  }

  /** False while no client is throttled: the only thing the redirect path asks then. */
  get throttling(): boolean {
    return this.#throttledUntil.size > 0;
  }

  /** Clients throttled now (some may have served their time and not been asked since). */
  get throttledClients(): number {
    return this.#throttledUntil.size;
  }

  /** Milliseconds of `client`'s cool-down left; 0 when it is not throttled. */
  coolDownLeft(client: string): number {
    const until = this.#throttledUntil.get(client);
    if (until === undefined) return 0;
    const left = until - this.#options.now();
    if (left > 0) return left;
    this.#throttledUntil.delete(client);
    return 0;
  }

  /** Counts one miss of `client`; the miss that passes the threshold throttles the client. */
  recordMiss(client: string): void {
    const now = this.#options.now();
    const window = this.#windows.get(client);
    if (window === undefined || now - window.startedAt >= this.#options.windowMs) {
      // Deleted first so that the map's order stays oldest window first, for eviction.
      this.#windows.delete(client);
      this.#windows.set(client, { count: 1, startedAt: now });
      evictOldest(this.#windows, this.#maxClients);
      return;
    }
    if (++window.count <= this.#options.threshold) return;
    this.#windows.delete(client);
    this.#throttledUntil.delete(client);
    this.#throttledUntil.set(client, now + this.#options.coolDownMs);
    evictOldest(this.#throttledUntil, this.#maxClients);
    this.throttledClientsTotal++;
  }
}

function evictOldest(map: Map<string, unknown>, max: number): void {
  if (map.size <= max) return;
  const oldest = map.keys().next();
  if (oldest.done !== true) map.delete(oldest.value);
}

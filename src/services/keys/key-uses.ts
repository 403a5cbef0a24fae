import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import type { Clock } from '../../ports/clock.js';

/** A key's `last_used_at` is this fresh at worst: never a store write per request. */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;
/** Keys remembered between writes; past it, the ones whose minute is over are forgotten. */
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Records when keys are used, at most once a minute per key (ADR 0118). The write is not
 * awaited: a request never waits on it, and a store that fails it costs a log line and a
 * count, never the request. Three guards keep writes rare: the record just read says the
 * key was used this minute; this process wrote it this minute; the store's own condition
 * (another instance wrote it this minute).
 */
export class KeyUses {
  /** Writes the store refused (each is logged by `onError`). */
  failures = 0;
  readonly #keys: Pick<ApiKeyStore, 'recordKeyUse'>;
  readonly #clock: Clock;
  readonly #onError: (error: unknown) => void;
  /** Key id → when this process last wrote its use. */
  readonly #written = new Map<string, number>();
  /** Writes still under way, so shutdown and tests can wait for them. */
  readonly #pending = new Set<Promise<void>>();

  constructor(
    keys: Pick<ApiKeyStore, 'recordKeyUse'>,
    clock: Clock,
    onError: (error: unknown) => void,
  ) {
    this.#keys = keys;
    this.#clock = clock;
    this.#onError = onError;
  }

  /** Notes that `record`'s key was just used; writes it when its minute is over. */
  record(record: ApiKeyRecord): void {
    const now = this.#clock.now();
    const since = now - KEY_USE_WRITE_INTERVAL_MS;
    if (record.lastUsedAt !== null && record.lastUsedAt > since) return;
    const written = this.#written.get(record.id);
    if (written !== undefined && written > since) return;
    if (this.#written.size >= MAX_REMEMBERED_KEYS) this.#forgetBefore(since);
    this.#written.set(record.id, now);
    const write = this.#keys.recordKeyUse(record.id, now, since).then(
      () => undefined,
      (error: unknown) => {
        this.failures++;
        this.#onError(error);
      },
    );
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** Resolves once every write begun so far has ended (failed ones included). */
  async settled(): Promise<void> {
    await Promise.all([...this.#pending]);
  }

  #forgetBefore(since: number): void {
    for (const [id, at] of this.#written) if (at <= since) this.#written.delete(id);
  }
}

/**
 * Codes Redis still has to be told about, each with the highest version seen: what an
 * outage kept from reaching it. Bounded, so an outage under load cannot grow it without
 * limit; the owner decides what a refused code costs.
 */
export class PendingVersions {
  readonly #versions = new Map<string, number>();
  readonly #maxCodes: number;

  constructor(maxCodes: number) {
    this.#maxCodes = maxCodes;
  }

  get size(): number {
    return this.#versions.size;
  }

  /** Keeps the higher version of `code`; false, keeping nothing, if it is new and all slots are taken. */
  add(code: string, version: number): boolean {
    const held = this.#versions.get(code);
    if (held === undefined && this.#versions.size >= this.#maxCodes) return false;
    if (held === undefined || held < version) this.#versions.set(code, version);
    return true;
  }

  /** Up to `limit` codes with their versions, the longest waiting first. */
  oldest(limit: number): [string, number][] {
    const batch: [string, number][] = [];
    for (const pending of this.#versions) {
      if (batch.length === limit) break;
      batch.push(pending);
    }
    return batch;
  }

  /** Forgets `code` once `version` reached Redis, unless a newer version came in meanwhile. */
  delivered(code: string, version: number): void {
    if (this.#versions.get(code) === version) this.#versions.delete(code);
  }

  clear(): void {
    this.#versions.clear();
  }
}

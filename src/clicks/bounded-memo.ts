/**
 * Remembers a function's answers for up to `maxEntries` distinct keys, starting afresh when
 * full (cheaper than an LRU for sets this small and this stable: user agents, referrers).
 * `known` only looks; `resolve` computes and remembers.
 */
export class BoundedMemo<V> {
  readonly #answers = new Map<string, V>();
  readonly #compute: (key: string) => V;
  readonly #maxEntries: number;

  constructor(compute: (key: string) => V, maxEntries: number) {
    this.#compute = compute;
    this.#maxEntries = maxEntries;
  }

  known(key: string): V | undefined {
    return this.#answers.get(key);
  }

  resolve(key: string): V {
    const known = this.#answers.get(key);
    if (known !== undefined) return known;
    const answer = this.#compute(key);
    if (this.#answers.size >= this.#maxEntries) this.#answers.clear();
    this.#answers.set(key, answer);
    return answer;
  }
}

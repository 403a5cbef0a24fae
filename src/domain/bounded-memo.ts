/** Slots of the recent-keys table: a power of two. */
const RECENT_SLOTS = 64;

/**
 * Remembers a function's answers for up to `maxEntries` distinct keys, starting afresh when
 * full (cheaper than an LRU for sets this small and this stable: user agents, referrers).
 * `known` only looks; `resolve` computes and remembers.
 *
 * `known` runs on every counted redirect with a header value just parsed from the request:
 * a new string, whose hash a map lookup must compute from all its characters (a user
 * agent is 100-odd; 2% of a loaded server's time in a profile). So it first tries a small
 * table of recent keys, indexed by the length and two characters and confirmed by string
 * equality, which compares the characters without hashing them; a popular value is found
 * there, anything else in the map as before.
 */
export class BoundedMemo<V> {
  readonly #answers = new Map<string, V>();
  readonly #compute: (key: string) => V;
  readonly #maxEntries: number;
  readonly #recentKeys: (string | undefined)[] = new Array<string | undefined>(RECENT_SLOTS);
  readonly #recentAnswers: (V | undefined)[] = new Array<V | undefined>(RECENT_SLOTS);

  constructor(compute: (key: string) => V, maxEntries: number) {
    this.#compute = compute;
    this.#maxEntries = maxEntries;
    this.#forgetRecent();
  }

  known(key: string): V | undefined {
    const slot = slotOf(key);
    if (this.#recentKeys[slot] === key) return this.#recentAnswers[slot];
    const known = this.#answers.get(key);
    if (known !== undefined) {
      this.#recentKeys[slot] = key;
      this.#recentAnswers[slot] = known;
    }
    return known;
  }

  resolve(key: string): V {
    const known = this.known(key);
    if (known !== undefined) return known;
    const answer = this.#compute(key);
    if (this.#answers.size >= this.#maxEntries) {
      this.#answers.clear();
      this.#forgetRecent();
    }
    this.#answers.set(key, answer);
    return answer;
  }

  #forgetRecent(): void {
    this.#recentKeys.fill(undefined);
    this.#recentAnswers.fill(undefined);
  }
}

/** A slot from the length and two characters: no pass over the whole key. */
function slotOf(key: string): number {
  const length = key.length;
  if (length === 0) return 0;
  return (
    (length * 7 + key.charCodeAt(length >> 1) * 3 + key.charCodeAt(length - 1)) & (RECENT_SLOTS - 1)
  );
}

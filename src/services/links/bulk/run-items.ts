/** One item's outcome: its value, or what it threw (a HopError for the item's own fault). */
export type ItemOutcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Runs `run` on every item, at most `concurrency` at once, and gives the outcomes in the
 * items' order. Items with the same key (an alias, an id) never run at once: each waits for
 * the one before it, so they end as if the call had been made one item at a time. A throw
 * is the item's outcome, never the whole call's.
 */
export async function runItems<I, T>(
  items: readonly I[],
  options: {
    readonly concurrency: number;
    readonly keyOf: (item: I) => string | null;
    readonly run: (item: I, index: number) => Promise<T>;
  },
): Promise<ItemOutcome<T>[]> {
  const { keyOf, run } = options;
  const outcomes = new Array<ItemOutcome<T>>(items.length);
  const lastOfKey = new Map<string, Promise<unknown>>();
  let next = 0;
  const settle = async (index: number, item: I): Promise<void> => {
    try {
      outcomes[index] = { ok: true, value: await run(item, index) };
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  };
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as I;
      const key = keyOf(item);
      if (key === null) {
        await settle(index, item);
        continue;
      }
      const before = lastOfKey.get(key);
      const mine = (before ?? Promise.resolve()).then(() => settle(index, item));
      lastOfKey.set(key, mine);
      await mine;
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(options.concurrency), items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

import { setTimeout as sleep } from 'node:timers/promises';

export interface OpenWhenReachableOptions {
  /** The pause between tries. */
  readonly retryMs: number;
  /** The first try failed: said once per wait, not at every try. */
  readonly onWaiting: (error: unknown) => void;
  /** A try succeeded after failures. */
  readonly onReached: () => void;
}

/**
 * `open`, tried again every `retryMs` until it succeeds. For a thread that opens its own
 * connections to a store the server already opened with the same settings (ADR 0153): a
 * failure then means the store is down for now, an outage to wait out, not a mistake to
 * stop on.
 */
export async function openWhenReachable<T>(
  open: () => Promise<T>,
  options: OpenWhenReachableOptions,
): Promise<T> {
  for (let failed = false; ; failed = true) {
    try {
      const opened = await open();
      if (failed) options.onReached();
      return opened;
    } catch (error) {
      if (!failed) options.onWaiting(error);
      await sleep(options.retryMs);
    }
  }
}

/** What `withinTimeout` answers when the reply did not come in time. */
export const TIMED_OUT = Symbol('timed out');

/**
 * `reply`, or TIMED_OUT once `timeoutMs` has passed (SPEC §5's Redis timeouts). Decided
 * after the poll phase: a loop iteration runs its timers before it reads sockets, so when
 * the event loop itself ran late (a busy instance), a reply that came in time would
 * otherwise lose to the timer. A rejection of `reply` rejects, unless the time was up.
 */
export function withinTimeout<T>(
  reply: Promise<T>,
  timeoutMs: number,
): Promise<T | typeof TIMED_OUT> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      setImmediate(() => {
        resolve(TIMED_OUT);
      });
    }, timeoutMs);
    reply.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The longest wait between two attempts of a delivery. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/**
 * The wait before the next attempt after `attempts` failed ones (1 or more): exponential
 * from `baseMs`, at most an hour, with jitter (half to all of it) so that the deliveries of
 * a receiver that was down do not all come back at once. `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, baseMs: number, random: number): number {
  const exponential = Math.min(baseMs * 2 ** Math.min(attempts - 1, 40), MAX_RETRY_DELAY_MS);
  return Math.max(1, Math.round(exponential * (0.5 + random / 2)));
}

/**
 * After a failed attempt at `nowMs`: failed once `giveUpAt` has come, otherwise pending
 * until the next attempt, never later than `giveUpAt` (so the last one is made then).
 */
export function afterFailedAttempt(
  attempts: number,
  nowMs: number,
  giveUpAt: number,
  baseMs: number,
  random: number,
): { readonly status: 'pending' | 'failed'; readonly nextAttemptAt: number } {
  if (nowMs >= giveUpAt) return { status: 'failed', nextAttemptAt: nowMs };
  return {
    status: 'pending',
    nextAttemptAt: Math.min(nowMs + retryDelayMs(attempts, baseMs, random), giveUpAt),
  };
}

import type { TokenBucketRule } from '../../domain/token-bucket.js';
import type { Clock } from '../../ports/clock.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/** Five wrong tries per client per link, one back every two minutes (ADR 0110). */
export const PASSWORD_TRIES_RULE: TokenBucketRule = { burst: 5, ratePerSecond: 5 / 600 };

const MAX_SUBJECTS = 100_000;

/** What a gate asks before and after it verifies one password try (issue 21: 429). */
export interface PasswordTries {
  /**
   * 0 when `subject` may try now, and then holds a slot for the try until `right` or
   * `wrong` settles it; else the whole seconds it must wait (answer 429), holding nothing.
   */
  reserve(subject: string): number;
  /** The try was right: frees its slot and takes nothing (a right password is never throttled). */
  right(subject: string): void;
  /**
   * The try was wrong: takes one from the subject's bucket and frees its slot. Resolves to 0
   * when the try was within the limit (answer 401), else the seconds to wait (answer 429).
   * Never rejects: a limiter that fails lets the try count as within the limit.
   */
  wrong(subject: string): Promise<number>;
}

/** One bucket per client per link: a visitor locked out of one link is not out of others. */
export function passwordTrySubject(client: string, linkId: string): string {
  return `${linkId}:${client}`;
}

interface Known {
  /** Tries being verified now. */
  inFlight: number;
  /** Wrong tries left, as the last answer of the limiter said (never more than there are). */
  left: number;
  /** Before this instant no try is verified; 0 when not blocked. */
  blockedUntilMs: number;
}

/**
 * Only wrong tries take from the limiter (shared through Redis when configured), so a
 * client that sends the right X-Link-Password on every request is never throttled. What
 * the port cannot say before a try (it only takes) is remembered here from its answers:
 * a subject whose bucket the last wrong try emptied is refused without verifying, and no
 * more tries are verified at once than it has left, so a burst of parallel guesses gets
 * no more than the limit. Scaled out, each instance learns of an empty bucket from its own
 * next wrong try, so N instances may verify up to N more tries per refill (ADR 0110).
 */
export function makePasswordTries(
  limiter: RateLimiter,
  rule: TokenBucketRule,
  clock: Clock,
): PasswordTries {
  const known = new Map<string, Known>();
  const secondsPerTry = 1 / rule.ratePerSecond;

  const entry = (subject: string): Known => {
    let found = known.get(subject);
    if (found === undefined) {
      found = { inFlight: 0, left: rule.burst, blockedUntilMs: 0 };
      known.set(subject, found);
      if (known.size > MAX_SUBJECTS) {
        const oldest = known.keys().next();
        if (oldest.done !== true) known.delete(oldest.value);
      }
    }
    return found;
  };

  const settle = (subject: string, state: Known) => {
    state.inFlight = Math.max(0, state.inFlight - 1);
    if (state.inFlight === 0 && state.blockedUntilMs === 0 && state.left >= rule.burst) {
      known.delete(subject);
    }
  };

  const reserve = (subject: string): number => {
    const state = entry(subject);
    if (state.blockedUntilMs !== 0) {
      const waitMs = state.blockedUntilMs - clock.now();
      if (waitMs > 0) return Math.ceil(waitMs / 1000);
      // Blocked until one try came back.
      state.blockedUntilMs = 0;
      state.left = Math.max(state.left, 1);
    }
    if (state.inFlight >= state.left) return 1;
    state.inFlight++;
    return 0;
  };

  const right = (subject: string): void => {
    const state = known.get(subject);
    if (state !== undefined) settle(subject, state);
  };

  const wrong = async (subject: string): Promise<number> => {
    let decision;
    try {
      decision = await limiter.take(subject);
    } catch {
      right(subject);
      return 0;
    }
    const state = entry(subject);
    state.inFlight = Math.max(0, state.inFlight - 1);
    if (!decision.allowed) {
      state.left = 0;
      state.blockedUntilMs = clock.now() + decision.retryAfterSeconds * 1000;
      return decision.retryAfterSeconds;
    }
    state.left = decision.remaining;
    if (decision.remaining === 0) {
      // This try took the last one: the next is refused until one is back. The bucket holds
      // less than one now, so that is within one try's refill of when it would be full.
      const untilOne = decision.fullInSeconds - (rule.burst - 1) * secondsPerTry;
      state.blockedUntilMs = clock.now() + Math.max(1, Math.ceil(untilOne)) * 1000;
    }
    return 0;
  };

  return { reserve, right, wrong };
}

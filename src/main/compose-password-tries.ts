import type { Cluster, Redis } from 'ioredis';
import {
  makePasswordTries,
  PASSWORD_TRIES_RULE,
  type PasswordTries,
} from '../services/protection/password-tries.js';
import { composeSharedLimiter, type SharedLimiterContext } from './compose-rate-limits.js';

export interface PasswordTriesParts {
  readonly tries: PasswordTries;
  /** The limiter's own Redis connection, when shared: disconnect it on stop. */
  readonly client: Redis | Cluster | null;
}

/**
 * Wrong link passwords per client per link (issue 21, ADR 0110): one bucket in Redis for
 * every instance when configured (keys `<prefix>ratelimit:password:<link id>:<client>`),
 * else in this process.
 */
export async function composePasswordTries(
  context: SharedLimiterContext,
): Promise<PasswordTriesParts> {
  const { limiter, client } = await composeSharedLimiter(PASSWORD_TRIES_RULE, 'password', context);
  return { tries: makePasswordTries(limiter, PASSWORD_TRIES_RULE, context.clock), client };
}

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { connectRedis } from '../../src/adapters/redis/redis-connection.js';
import { RedisRateLimiter } from '../../src/adapters/redis/redis-rate-limiter.js';
import {
  makePasswordTries,
  PASSWORD_TRIES_RULE,
  passwordTrySubject,
  type PasswordTries,
} from '../../src/services/protection/password-tries.js';
import { ManualClock } from '../support/manual-clock.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';

/** Issue 21: wrong password tries are counted once for all instances when Redis is there. */

/** The tries one instance holds: its own connection, fallback and memory of answers. */
function instanceTries(t: TestContext, prefix: string, clock: ManualClock): PasswordTries {
  const client = connectRedis(
    { url: REDIS_URL },
    {
      commandTimeout: 1000,
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
      retryStrategy: () => 100,
    },
  );
  client.on('error', () => undefined);
  t.after(() => client.disconnect());
  const limiter = new RedisRateLimiter({
    client,
    keyPrefix: prefix,
    rule: PASSWORD_TRIES_RULE,
    clock,
    fallback: new MemoryRateLimiter(PASSWORD_TRIES_RULE, clock),
    timeoutMs: 1000,
  });
  return makePasswordTries(limiter, PASSWORD_TRIES_RULE, clock);
}

async function wrongTry(tries: PasswordTries, subject: string): Promise<number> {
  const wait = tries.reserve(subject);
  return wait > 0 ? wait : tries.wrong(subject);
}

describe('password tries shared through Redis', () => {
  test('wrong tries on one instance count on the other', async (t) => {
    if (!(await requireRedis(t))) return;
    const clock = new ManualClock(Date.now());
    const prefix = uniquePrefix();
    const [one, other] = [instanceTries(t, prefix, clock), instanceTries(t, prefix, clock)];
    const subject = passwordTrySubject('192.0.2.7', '01JF0000000000000000000000');
    for (let i = 0; i < 5; i++) assert.equal(await wrongTry(one, subject), 0, `try ${i + 1}`);
    assert.ok(one.reserve(subject) > 0, 'the instance that took the last one refuses at once');
    // The other has not heard: it verifies this try, and the bucket then refuses it.
    assert.ok((await wrongTry(other, subject)) > 0);
    assert.ok(other.reserve(subject) > 0);
  });

  test('right tries on any instance take nothing from the shared bucket', async (t) => {
    if (!(await requireRedis(t))) return;
    const clock = new ManualClock(Date.now());
    const prefix = uniquePrefix();
    const [one, other] = [instanceTries(t, prefix, clock), instanceTries(t, prefix, clock)];
    const subject = passwordTrySubject('192.0.2.8', '01JF0000000000000000000000');
    for (let i = 0; i < 20; i++) {
      assert.equal(other.reserve(subject), 0);
      other.right(subject);
    }
    for (let i = 0; i < 5; i++) assert.equal(await wrongTry(one, subject), 0, `try ${i + 1}`);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import {
  makePasswordTries,
  PASSWORD_TRIES_RULE,
  passwordTrySubject,
} from '../../src/services/protection/password-tries.js';
import { ManualClock } from '../support/manual-clock.js';

/** Issue 21: too many wrong tries from one client answer 429; a right one never counts. */

const T0 = 1_800_000_000_000;
const SUBJECT = passwordTrySubject('192.0.2.1', '01JF0000000000000000000000');

function setUp() {
  const clock = new ManualClock(T0);
  const tries = makePasswordTries(
    new MemoryRateLimiter(PASSWORD_TRIES_RULE, clock),
    PASSWORD_TRIES_RULE,
    clock,
  );
  /** One wrong try, reserved and settled: 0 when answered 401, else the 429's wait. */
  const wrongTry = async (subject = SUBJECT): Promise<number> => {
    const wait = tries.reserve(subject);
    return wait > 0 ? wait : tries.wrong(subject);
  };
  return { clock, tries, wrongTry };
}

describe('password tries', () => {
  test('five wrong tries, then the sixth is refused until one comes back', async () => {
    const { clock, tries, wrongTry } = setUp();
    for (let i = 0; i < 5; i++) assert.equal(await wrongTry(), 0, `try ${i + 1}`);
    const wait = tries.reserve(SUBJECT);
    assert.ok(wait > 0 && wait <= 120, `waits ${wait} s`);
    clock.advance(wait * 1000);
    assert.equal(tries.reserve(SUBJECT), 0, 'one try back');
    assert.equal(await tries.wrong(SUBJECT), 0);
    assert.ok(tries.reserve(SUBJECT) > 0, 'and then none again');
  });

  test('right tries take nothing, however many', async () => {
    const { tries, wrongTry } = setUp();
    for (let i = 0; i < 50; i++) {
      assert.equal(tries.reserve(SUBJECT), 0);
      tries.right(SUBJECT);
    }
    for (let i = 0; i < 5; i++) assert.equal(await wrongTry(), 0);
  });

  test('a refused client is refused even with the right password (nothing is verified)', async () => {
    const { tries, wrongTry } = setUp();
    for (let i = 0; i < 5; i++) await wrongTry();
    assert.ok(tries.reserve(SUBJECT) > 0);
  });

  test('no more tries are verified at once than are left', async () => {
    const { tries, wrongTry } = setUp();
    for (let i = 0; i < 3; i++) await wrongTry();
    assert.equal(tries.reserve(SUBJECT), 0);
    assert.equal(tries.reserve(SUBJECT), 0);
    assert.equal(tries.reserve(SUBJECT), 1, 'a third at once would be one too many');
    tries.right(SUBJECT);
    assert.equal(tries.reserve(SUBJECT), 0);
  });

  test('each client and each link has its own tries', async () => {
    const { tries, wrongTry } = setUp();
    for (let i = 0; i < 5; i++) await wrongTry();
    assert.equal(tries.reserve(passwordTrySubject('192.0.2.2', '01JF0000000000000000000000')), 0);
    assert.equal(tries.reserve(passwordTrySubject('192.0.2.1', '01JF0000000000000000000001')), 0);
  });

  test('another instance that emptied the bucket: the next wrong try here is refused', async () => {
    const clock = new ManualClock(T0);
    const shared = new MemoryRateLimiter(PASSWORD_TRIES_RULE, clock);
    const here = makePasswordTries(shared, PASSWORD_TRIES_RULE, clock);
    for (let i = 0; i < 5; i++) await shared.take(SUBJECT);
    assert.equal(here.reserve(SUBJECT), 0, 'this instance has not heard yet');
    assert.ok((await here.wrong(SUBJECT)) > 0);
    assert.ok(here.reserve(SUBJECT) > 0);
  });

  test('a failing limiter lets tries through', async () => {
    const clock = new ManualClock(T0);
    const failing: RateLimiter = { take: () => Promise.reject(new Error('down')) };
    const tries = makePasswordTries(failing, PASSWORD_TRIES_RULE, clock);
    for (let i = 0; i < 10; i++) {
      assert.equal(tries.reserve(SUBJECT), 0);
      assert.equal(await tries.wrong(SUBJECT), 0);
    }
  });
});

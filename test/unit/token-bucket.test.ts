import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  takeToken,
  type TokenBucketDecision,
  type TokenBucketRule,
  type TokenBucketState,
} from '../../src/domain/token-bucket.js';

/** SPEC §7: creates are limited per key by a token bucket; 429 carries Retry-After. */

const T0 = 1_700_000_000_000;
const RULE: TokenBucketRule = { ratePerSecond: 20, burst: 100 }; // the HOP_CREATE_RATE default

/** Takes `count` tokens at `nowMs`, threading the state; returns every decision. */
function takeMany(
  rule: TokenBucketRule,
  state: TokenBucketState | undefined,
  nowMs: number,
  count: number,
): { decisions: TokenBucketDecision[]; state: TokenBucketState | undefined } {
  const decisions: TokenBucketDecision[] = [];
  let current = state;
  for (let i = 0; i < count; i++) {
    const decision = takeToken(rule, current, nowMs);
    decisions.push(decision);
    current = decision.state;
  }
  return { decisions, state: current };
}

describe('burst, then refusal', () => {
  test('a new bucket starts full: exactly `burst` takes succeed at one instant', () => {
    const { decisions } = takeMany(RULE, undefined, T0, 101);
    assert.ok(decisions.slice(0, 100).every((d) => d.allowed));
    assert.deepEqual(
      decisions.slice(0, 100).map((d) => d.remaining),
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    const refused = decisions[100]!;
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
  });

  test('an allowed take says retryAfterSeconds 0 and moves the state to now', () => {
    const decision = takeToken(RULE, undefined, T0);
    assert.deepEqual(decision, {
      allowed: true,
      state: { tokens: 99, updatedAtMs: T0 },
      remaining: 99,
      retryAfterSeconds: 0,
      // One token short of 100 at 20 a second: full again within the second.
      fullInSeconds: 1,
    });
  });

  test('fullInSeconds counts the whole seconds until the bucket is full again', () => {
    const { decisions } = takeMany(RULE, undefined, T0, 100);
    assert.equal(decisions.at(-1)?.fullInSeconds, 5);
    assert.equal(decisions[40]?.fullInSeconds, 3);
  });

  test('a refusal keeps refusing at the same instant', () => {
    const { state } = takeMany(RULE, undefined, T0, 100);
    const { decisions } = takeMany(RULE, state, T0, 10);
    assert.ok(decisions.every((d) => !d.allowed && d.remaining === 0));
  });

  test('a burst of 1 allows one take, then refuses', () => {
    const rule = { ratePerSecond: 1, burst: 1 };
    const first = takeToken(rule, undefined, T0);
    assert.equal(first.allowed, true);
    assert.equal(first.remaining, 0);
    assert.equal(takeToken(rule, first.state, T0).allowed, false);
  });
});

describe('retryAfterSeconds', () => {
  test('is the whole seconds until one token is back, rounded up', () => {
    const empty: TokenBucketState = { tokens: 0, updatedAtMs: T0 };
    assert.equal(takeToken({ ratePerSecond: 1, burst: 5 }, empty, T0).retryAfterSeconds, 1);
    assert.equal(takeToken({ ratePerSecond: 0.1, burst: 5 }, empty, T0).retryAfterSeconds, 10);
    assert.equal(takeToken({ ratePerSecond: 1 / 60, burst: 5 }, empty, T0).retryAfterSeconds, 60);
    assert.equal(takeToken({ ratePerSecond: 0.3, burst: 5 }, empty, T0).retryAfterSeconds, 4);
  });

  test('is never below 1 second, even when a token is a millisecond away', () => {
    const empty: TokenBucketState = { tokens: 0, updatedAtMs: T0 };
    assert.equal(takeToken(RULE, empty, T0).retryAfterSeconds, 1);
    assert.equal(takeToken({ ratePerSecond: 1000, burst: 5 }, empty, T0).retryAfterSeconds, 1);
    const almost: TokenBucketState = { tokens: 0.999, updatedAtMs: T0 };
    assert.equal(takeToken({ ratePerSecond: 1, burst: 5 }, almost, T0).retryAfterSeconds, 1);
  });

  test('counts the part of a token already refilled', () => {
    const rule = { ratePerSecond: 0.1, burst: 5 }; // one token per 10 s
    const half: TokenBucketState = { tokens: 0.5, updatedAtMs: T0 };
    assert.equal(takeToken(rule, half, T0).retryAfterSeconds, 5);
    // 3 s later 0.8 is there: 2 s to go.
    assert.equal(takeToken(rule, half, T0 + 3000).retryAfterSeconds, 2);
  });

  test('waiting exactly retryAfterSeconds makes the next take succeed', () => {
    const rule = { ratePerSecond: 0.25, burst: 2 };
    const { state } = takeMany(rule, undefined, T0, 2);
    const refused = takeToken(rule, state, T0 + 1000);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 3);
    const later = takeToken(rule, refused.state, T0 + 1000 + refused.retryAfterSeconds * 1000);
    assert.equal(later.allowed, true);
  });
});

describe('refill over time', () => {
  test('tokens come back at ratePerSecond', () => {
    const { state } = takeMany(RULE, undefined, T0, 100);
    // 20/s: after 1 s, 20 takes succeed and the 21st is refused.
    const { decisions } = takeMany(RULE, state, T0 + 1000, 21);
    assert.equal(decisions.filter((d) => d.allowed).length, 20);
    assert.equal(decisions[20]!.allowed, false);
  });

  test('fractions of a token accumulate across refusals', () => {
    const rule = { ratePerSecond: 1, burst: 1 };
    let state = takeToken(rule, undefined, T0).state; // empty
    for (const ms of [250, 500, 750]) {
      const decision = takeToken(rule, state, T0 + ms);
      assert.equal(decision.allowed, false, `at +${ms} ms`);
      state = decision.state;
    }
    assert.equal(takeToken(rule, state, T0 + 1000).allowed, true);
  });

  test('remaining is the whole tokens left after the take', () => {
    const rule = { ratePerSecond: 2, burst: 10 };
    const empty: TokenBucketState = { tokens: 0, updatedAtMs: T0 };
    const decision = takeToken(rule, empty, T0 + 1750); // 3.5 tokens, take one → 2.5
    assert.equal(decision.allowed, true);
    assert.equal(decision.remaining, 2);
    assert.equal(decision.state.tokens, 2.5);
  });

  test('a clock that goes backwards refills nothing and does not throw', () => {
    const empty: TokenBucketState = { tokens: 0, updatedAtMs: T0 };
    const decision = takeToken(RULE, empty, T0 - 60_000);
    assert.equal(decision.allowed, false);
    assert.ok(decision.state.tokens >= 0);
  });
});

describe('cap at burst', () => {
  test('a long idle time refills to burst, never beyond', () => {
    const { state } = takeMany(RULE, undefined, T0, 100);
    const dayLater = T0 + 86_400_000;
    const { decisions } = takeMany(RULE, state, dayLater, 101);
    assert.equal(decisions.filter((d) => d.allowed).length, 100);
    assert.equal(decisions[0]!.remaining, 99);
  });

  test('a stored state above burst is capped on the next take', () => {
    const overfull: TokenBucketState = { tokens: 1000, updatedAtMs: T0 };
    const decision = takeToken(RULE, overfull, T0 + 1000);
    assert.equal(decision.remaining, 99);
    assert.equal(decision.state.tokens, 99);
  });

  test('a partly used bucket fills up to burst and stops', () => {
    const rule = { ratePerSecond: 1, burst: 5 };
    const { state } = takeMany(rule, undefined, T0, 3); // 2 left
    const decision = takeToken(rule, state, T0 + 60_000); // would be 62 uncapped
    assert.equal(decision.remaining, 4);
  });
});

test('takeToken is pure: the previous state is not changed', () => {
  const previous: TokenBucketState = Object.freeze({ tokens: 3, updatedAtMs: T0 });
  const a = takeToken(RULE, previous, T0 + 500);
  const b = takeToken(RULE, previous, T0 + 500);
  assert.deepEqual(a, b);
  assert.deepEqual(previous, { tokens: 3, updatedAtMs: T0 });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ScannerThrottle } from '../../src/services/protection/scanner-throttle.js';

function throttleAt(options: { threshold: number; maxClients?: number }) {
  let now = 1_000_000;
  const throttle = new ScannerThrottle({
    windowMs: 60_000,
    coolDownMs: 600_000,
    now: () => now,
    ...options,
  });
  return {
    throttle,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('ScannerThrottle', () => {
  test('nobody is throttled until a client passes the threshold within the window', () => {
    const { throttle } = throttleAt({ threshold: 3 });
    for (let i = 0; i < 3; i++) throttle.recordMiss('198.51.100.1');
    assert.equal(throttle.throttling, false);
    assert.equal(throttle.coolDownLeft('198.51.100.1'), 0);
    throttle.recordMiss('198.51.100.1');
    assert.equal(throttle.throttling, true);
    assert.equal(throttle.coolDownLeft('198.51.100.1'), 600_000);
    assert.equal(throttle.coolDownLeft('198.51.100.2'), 0);
    assert.equal(throttle.throttledClientsTotal, 1);
  });

  test('a threshold of one throttles on the second miss, not the first', () => {
    const { throttle } = throttleAt({ threshold: 1 });
    throttle.recordMiss('a');
    assert.equal(throttle.throttling, false);
    throttle.recordMiss('a');
    assert.equal(throttle.throttling, true);
  });

  test('misses in separate windows do not add up', () => {
    const { throttle, advance } = throttleAt({ threshold: 3 });
    for (let window = 0; window < 5; window++) {
      for (let i = 0; i < 3; i++) throttle.recordMiss('a');
      advance(60_000);
    }
    assert.equal(throttle.throttling, false);
  });

  test('the cool-down ends, and the client starts from nothing', () => {
    const { throttle, advance } = throttleAt({ threshold: 2 });
    for (let i = 0; i < 3; i++) throttle.recordMiss('a');
    advance(599_999);
    assert.equal(throttle.coolDownLeft('a'), 1);
    advance(1);
    assert.equal(throttle.coolDownLeft('a'), 0);
    assert.equal(throttle.throttling, false);
    throttle.recordMiss('a');
    throttle.recordMiss('a');
    assert.equal(throttle.throttling, false);
  });

  test('memory is bounded: the oldest clients are forgotten', () => {
    const { throttle } = throttleAt({ threshold: 1, maxClients: 100 });
    for (let client = 0; client < 1000; client++) {
      throttle.recordMiss(`c${client}`);
      throttle.recordMiss(`c${client}`);
    }
    assert.equal(throttle.throttledClients, 100);
    assert.equal(throttle.coolDownLeft('c0'), 0);
    assert.ok(throttle.coolDownLeft('c999') > 0);
  });

  test('a threshold below one is refused', () => {
    assert.throws(() => throttleAt({ threshold: 0 }), RangeError);
  });
});

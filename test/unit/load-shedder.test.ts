import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadShedder } from '../../src/services/protection/load-shedder.js';

test('load shedding levels follow in-flight requests and event-loop lag, whichever is worse', () => {
  let lag = 0;
  const shedder = new LoadShedder({ maxInFlight: 10, maxLagMs: 200, lagMs: () => lag });
  assert.equal(shedder.level(), 0);
  for (let i = 0; i < 10; i++) shedder.enter();
  assert.equal(shedder.level(), 0);
  shedder.enter();
  assert.equal(shedder.level(), 1);
  for (let i = 0; i < 10; i++) shedder.enter();
  assert.equal(shedder.level(), 2);
  for (let i = 0; i < 21; i++) shedder.leave();
  assert.equal(shedder.inFlight, 0);
  lag = 200;
  assert.equal(shedder.level(), 0);
  lag = 201;
  assert.equal(shedder.level(), 1);
  lag = 401;
  assert.equal(shedder.level(), 2);
});

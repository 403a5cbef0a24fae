import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClickEventDemand } from '../../src/services/events/click-event-demand.js';
import { ManualClock } from '../support/manual-clock.js';

const KEEP_MS = 24 * 60 * 60 * 1000;

test('click events are wanted from a touch until the keep after it, and not before any', () => {
  const clock = new ManualClock(1_000_000);
  const demand = new ClickEventDemand({ clock, keepMs: KEEP_MS });
  assert.equal(demand.wanted(clock.now()), false, 'nobody has read them');
  demand.touch();
  assert.equal(demand.wanted(clock.now()), true);
  assert.equal(demand.wanted(clock.now() + KEEP_MS - 1), true, 'a stream may still resume');
  assert.equal(demand.wanted(clock.now() + KEEP_MS), false, 'past the window');
  clock.advance(KEEP_MS / 2);
  demand.touch();
  assert.equal(demand.wanted(clock.now() + KEEP_MS - 1), true, 'a later touch moves it');
});

test('touches are passed on when they move the horizon by a minute or more', () => {
  const clock = new ManualClock(5_000);
  const raised: number[] = [];
  const demand = new ClickEventDemand({
    clock,
    keepMs: KEEP_MS,
    onRaise: (untilMs) => raised.push(untilMs),
  });
  demand.touch();
  assert.deepEqual(raised, [5_000 + KEEP_MS], 'the first at once');
  clock.advance(59_999);
  demand.touch();
  assert.equal(raised.length, 1, 'a poll a second is not a message a second');
  assert.equal(demand.wanted(5_000 + KEEP_MS + 59_998), true, 'though it counts here');
  clock.advance(1);
  demand.touch();
  assert.deepEqual(raised, [5_000 + KEEP_MS, 65_000 + KEEP_MS]);
  clock.advance(-30_000);
  demand.touch();
  assert.equal(raised.length, 2, 'never moved earlier');
});

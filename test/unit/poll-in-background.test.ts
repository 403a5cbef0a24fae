import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollInBackground } from '../../src/main/poll-in-background.js';
import { capturingLogger } from '../support/capturing-logger.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

test('a failing poll is logged when it starts failing and when it recovers, not every round', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { logger, lines } = capturingLogger();
  const outcomes = [false, false, false, true, true, false];
  let rounds = 0;
  const stop = pollInBackground({
    run: async () => {
      const ok = outcomes[rounds++];
      if (ok === false) throw new Error(`round ${rounds} failed`);
    },
    everyMs: 1000,
    logger,
    failing: 'it fails',
    recovered: 'it works again',
  });
  await flush();
  for (let i = 1; i < outcomes.length; i++) {
    t.mock.timers.tick(1000);
    await flush();
  }
  assert.equal(rounds, outcomes.length);
  assert.deepEqual(
    lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .map((l) => [l.level, l.msg]),
    [
      [40, 'it fails'],
      [30, 'it works again'],
      [40, 'it fails'],
    ],
  );
  // Stopped: no more rounds, and a failure in flight at shutdown says nothing.
  stop();
  t.mock.timers.tick(5000);
  await flush();
  assert.equal(rounds, outcomes.length);
});

test('a round still running when the next is due is not joined by a second one', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { logger } = capturingLogger();
  let rounds = 0;
  let finish: () => void = () => undefined;
  const stop = pollInBackground({
    run: () => {
      rounds++;
      return new Promise<void>((resolve) => (finish = resolve));
    },
    everyMs: 1000,
    logger,
    failing: 'x',
    recovered: 'y',
  });
  t.mock.timers.tick(3000);
  assert.equal(rounds, 1);
  finish();
  await flush();
  t.mock.timers.tick(1000);
  assert.equal(rounds, 2);
  stop();
});

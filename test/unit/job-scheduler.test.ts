import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JobScheduler, type PeriodicJob } from '../../src/jobs/job-scheduler.js';
import { capturingLogger } from '../support/capturing-logger.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** The log lines as [level, message]. */
function logged(lines: readonly string[]): [number, string][] {
  return lines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .map((l) => [l.level, l.msg]);
}

function poll(overrides: Partial<PeriodicJob> & Pick<PeriodicJob, 'run'>): PeriodicJob {
  return {
    name: 'poll',
    everyMs: 1000,
    runAtStart: true,
    failing: 'it fails',
    recovered: 'it works again',
    ...overrides,
  };
}

test('a failing poll is logged when it starts failing and when it recovers, not every round', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { logger, lines } = capturingLogger();
  const jobs = new JobScheduler(logger);
  const outcomes = [false, false, false, true, true, false];
  let rounds = 0;
  jobs.start(
    poll({
      run: async () => {
        const ok = outcomes[rounds++];
        if (ok === false) throw new Error(`round ${rounds} failed`);
      },
    }),
  );
  await flush();
  for (let i = 1; i < outcomes.length; i++) {
    t.mock.timers.tick(1000);
    await flush();
  }
  assert.equal(rounds, outcomes.length);
  assert.deepEqual(logged(lines), [
    [40, 'it fails'],
    [30, 'it works again'],
    [40, 'it fails'],
  ]);
  assert.equal(jobs.failures('poll'), 4, 'every failed round is counted');
  // Stopped: no more rounds, and a failure in flight at shutdown says nothing.
  await jobs.stop();
  t.mock.timers.tick(5000);
  await flush();
  assert.equal(rounds, outcomes.length);
});

test('a round still running when the next is due is not joined by a second one', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { logger } = capturingLogger();
  const jobs = new JobScheduler(logger);
  let rounds = 0;
  let finish: () => void = () => undefined;
  jobs.start(
    poll({
      run: () => {
        rounds++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    }),
  );
  t.mock.timers.tick(3000);
  assert.equal(rounds, 1);
  const joined = jobs.runNow('poll');
  assert.equal(rounds, 1, 'runNow joins the round in progress');
  finish();
  await joined;
  await flush();
  t.mock.timers.tick(1000);
  assert.equal(rounds, 2);
  await jobs.stop();
});

test('without `recovered` every failure is logged; runNow never rejects', async () => {
  const { logger, lines } = capturingLogger();
  const jobs = new JobScheduler(logger);
  jobs.start({
    name: 'rare',
    everyMs: null,
    runAtStart: false,
    run: () => Promise.reject(new Error('no')),
    failing: 'rare job failed',
  });
  await jobs.runNow('rare');
  await jobs.runNow('rare');
  assert.deepEqual(logged(lines), [
    [40, 'rare job failed'],
    [40, 'rare job failed'],
  ]);
  assert.equal(jobs.failures('rare'), 2);
  await jobs.stop();
});

test('the first round of a job that does not run at start comes one interval later', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const jobs = new JobScheduler(capturingLogger().logger);
  let rounds = 0;
  jobs.start(
    poll({
      everyMs: 600_000,
      runAtStart: false,
      run: async () => {
        rounds++;
      },
    }),
  );
  t.mock.timers.tick(599_999);
  assert.equal(rounds, 0, 'not before the interval');
  t.mock.timers.tick(1);
  assert.equal(rounds, 1);
  await jobs.stop();
});

test('stop aborts every round, waits for those that finish on stop, and starts nothing after', async () => {
  const jobs = new JobScheduler(capturingLogger().logger);
  let release: () => void = () => undefined;
  let sawAbort = false;
  let polls = 0;
  jobs.start({
    name: 'batches',
    everyMs: null,
    runAtStart: true,
    finishOnStop: true,
    run: async (stopping) => {
      await new Promise<void>((resolve) => (release = resolve));
      sawAbort = stopping.aborted;
    },
    failing: 'x',
  });
  jobs.start(
    poll({
      run: () => {
        polls++;
        return new Promise<void>(() => undefined);
      },
    }),
  );
  let stopped = false;
  const stopping = jobs.stop().then(() => (stopped = true));
  for (let i = 0; i < 5; i++) await flush();
  assert.equal(stopped, false, 'stop waits for the round that finishes on stop');
  release();
  await stopping;
  assert.equal(sawAbort, true);
  assert.equal(polls, 1, 'a poll that never ends does not hold stop up');
  await jobs.runNow('poll');
  assert.equal(polls, 1, 'nothing starts after stop');
  assert.throws(() => jobs.runNow('nope'), /no job named nope/);
});

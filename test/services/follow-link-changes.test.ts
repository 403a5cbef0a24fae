import assert from 'node:assert/strict';
import { test } from 'node:test';
import { followLinkChanges } from '../../src/jobs/follow-link-changes.js';
import { JobScheduler } from '../../src/jobs/job-scheduler.js';
import { createLogger } from '../../src/observability/logger.js';
import type { LinkChange } from '../../src/ports/link-change-feed.js';
import { BASE_MS, makeLink } from '../contract/store-factories.js';
import { ManualClock } from '../support/manual-clock.js';
import { openTempSqliteStore } from '../support/temp-data.js';

const KEEP_MS = 600_000;
const FORGET_EVERY_MS = 60_000;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Lets a round run until `done` (each batch waits for a turn of the loop), at most 1,000 turns. */
async function settle(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !(await done()); i++) await turn();
  assert.ok(await done(), what);
}

/** A round that reads nothing new ends within a few turns. */
async function fewTurns(): Promise<void> {
  for (let i = 0; i < 20; i++) await turn();
}

test('hop serve follows changes from its start, a backlog in batches, and forgets old ones', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const server = openTempSqliteStore(t);
  const clock = new ManualClock(BASE_MS);
  const links = Array.from({ length: 2500 }, () => makeLink({ expiresAt: null }));
  for (const link of links) assert.equal((await server.links.insertLink(link)).kind, 'inserted');
  const [before] = links as [(typeof links)[0]];
  /** A new version of the link, as another process's write would make it. */
  const bump = (link: (typeof links)[0], version: number) =>
    server.links.replaceLink({ ...link, version, updatedAt: clock.now() }, version - 1);
  assert.equal(await bump(before, 2), true);

  const seen: LinkChange[] = [];
  const jobs = new JobScheduler(createLogger('silent'));
  jobs.start(
    followLinkChanges({
      feed: server.linkChanges,
      changed: (change) => seen.push(change),
      clock,
      keepMs: KEEP_MS,
    }),
  );
  t.after(() => jobs.stop());
  const started = await server.linkChanges.latest();
  await fewTurns();

  // 2,500 changes: three batches in one round; the change from before the start is skipped.
  for (const link of links) assert.equal(await bump(link, link === before ? 3 : 2), true);
  t.mock.timers.tick(1000);
  await settle(() => seen.length === links.length, 'every change seen');
  assert.deepEqual(
    seen,
    links.map((link) => ({ code: link.code, version: link === before ? 3 : 2 })),
  );
  assert.ok((await server.linkChanges.latest()) > started);

  // Kept while they are younger than KEEP_MS; forgotten, in batches, once they are older.
  clock.advance(FORGET_EVERY_MS);
  t.mock.timers.tick(1000);
  await fewTurns();
  assert.equal((await server.linkChanges.changesAfter(started, 10)).changes.length, 10);
  clock.advance(KEEP_MS);
  t.mock.timers.tick(1000);
  const remaining = async () => (await server.linkChanges.changesAfter(0, 10)).changes.length;
  await settle(async () => (await remaining()) === 0, 'every old change forgotten');
  assert.equal(seen.length, links.length, 'forgetting tells nobody of anything');
});

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SecondChanceNearLinkCache } from '../../src/adapters/memory-cache/second-chance-near-link-cache.js';
import type { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { ScalableBloomFilter } from '../../src/codes/scalable-bloom-filter.js';
import type { Link } from '../../src/domain/link.js';
import type { CodeRecycler } from '../../src/ports/code-recycler.js';
import type { LinkEvents } from '../../src/ports/link-events.js';
import { JobScheduler } from '../../src/jobs/job-scheduler.js';
import { sweepLinks } from '../../src/jobs/sweep-links.js';
import { runSweep, type SweepDeps } from '../../src/services/lifecycle/sweeper.js';
import type { SweepTotals } from '../../src/services/stats/service-stats.js';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/services/links/create-link.js';
import { KnownCodes } from '../../src/services/redirect/known-codes.js';
import { RedirectResolver } from '../../src/services/redirect/redirect-resolver.js';
import { outcomeOf } from '../support/outcome-of.js';
import { BASE_MS, HOUR_MS, makeClaim, makeLink } from '../contract/store-factories.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { ManualClock } from '../support/manual-clock.js';
import { openTempSqliteStore } from '../support/temp-data.js';

const DAY_MS = 24 * HOUR_MS;
const GRACE_MS = 30 * DAY_MS;

/** Every linkChanged, in order. */
class RecordingEvents implements LinkEvents {
  readonly changed: Link[] = [];
  linkCreated(): void {}
  linkChanged(link: Link): void {
    this.changed.push(link);
  }
}

/** Every batch of codes recycled; fails while `failing` is set, before recording. */
class RecordingRecycler implements CodeRecycler {
  readonly batches: string[][] = [];
  failing = false;
  recycle(codes: readonly string[]): Promise<void> {
    if (this.failing) return Promise.reject(new Error('pool file not writable'));
    this.batches.push([...codes]);
    return Promise.resolve();
  }
  get codes(): string[] {
    return this.batches.flat().sort();
  }
}

function setup(t: TestContext, overrides: Partial<SweepDeps> = {}) {
  const store = openTempSqliteStore(t);
  const clock = new ManualClock(BASE_MS);
  const events = new RecordingEvents();
  const recycler = new RecordingRecycler();
  let yields = 0;
  const deps: SweepDeps = {
    sweep: store.sweep,
    events,
    recycler,
    reclaimGraceMs: GRACE_MS,
    yieldBetweenBatches: () => {
      yields++;
      return Promise.resolve();
    },
    ...overrides,
  };
  return { store, clock, events, recycler, deps, yields: () => yields };
}

/**
 * Inserts `links`, then one active link that never expires. SQLite holds back the row
 * inserted last from reclaiming (deleting it would hide later links from scanCodes), so
 * the links under test are never the last row.
 */
async function insertAll(store: SqliteStore, links: readonly Link[]): Promise<void> {
  for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  await store.links.insertLink(makeLink());
}

async function codeIsFree(store: SqliteStore, code: string): Promise<boolean> {
  const result = await store.links.insertLink(makeLink({ code }));
  return result.kind === 'inserted';
}

function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

describe('runSweep over a real SQLite store', () => {
  test('marks links past their expiry as expired and announces each at version + 1', async (t) => {
    const { store, clock, events, deps } = setup(t);
    const due = [
      makeLink({ expiresAt: BASE_MS + HOUR_MS }),
      makeLink({ expiresAt: BASE_MS + 2 * HOUR_MS, version: 3 }),
    ];
    const later = makeLink({ expiresAt: BASE_MS + DAY_MS });
    const forever = makeLink({ expiresAt: null });
    await insertAll(store, [...due, later, forever]);
    clock.advance(3 * HOUR_MS);

    const report = await runSweep(deps, clock.now());

    assert.equal(report.expired, 2);
    assert.equal(report.reclaimed, 0);
    assert.equal(report.stopped, false);
    assert.deepEqual(
      sorted(events.changed.map((link) => `${link.id} ${link.state} v${link.version}`)),
      sorted(due.map((link) => `${link.id} expired v${link.version + 1}`)),
    );
    for (const link of due) {
      const stored = await store.links.findLinkById(link.id);
      assert.equal(stored?.state, 'expired');
      assert.equal(stored?.version, link.version + 1);
      assert.equal(stored?.updatedAt, clock.now());
    }
    assert.deepEqual(await store.links.findLinkById(later.id), later);
    assert.deepEqual(await store.links.findLinkById(forever.id), forever);

    // A second sweep finds nothing new.
    events.changed.length = 0;
    assert.equal((await runSweep(deps, clock.now())).expired, 0);
    assert.deepEqual(events.changed, []);
  });

  test('a generated code is not freed before the grace period and is after it', async (t) => {
    const { store, clock, recycler, deps } = setup(t);
    const link = makeLink({ expiresAt: BASE_MS + HOUR_MS });
    await insertAll(store, [link]);

    clock.advance(2 * HOUR_MS);
    const marked = await runSweep(deps, clock.now());
    assert.equal(marked.expired, 1);
    assert.equal(marked.reclaimed, 0);
    assert.equal(await codeIsFree(store, link.code), false, 'just expired: still held');

    // One millisecond short of the grace period after its expiry.
    clock.advance(GRACE_MS - HOUR_MS - 1);
    assert.equal((await runSweep(deps, clock.now())).reclaimed, 0);
    assert.deepEqual(recycler.codes, []);
    assert.equal(await codeIsFree(store, link.code), false, 'within the grace period');

    clock.advance(1);
    const reclaimed = await runSweep(deps, clock.now());
    assert.equal(reclaimed.reclaimed, 1);
    assert.deepEqual(recycler.codes, [link.code]);
    assert.equal(await store.links.findLinkById(link.id), null);
    assert.equal(await codeIsFree(store, link.code), true, 'the code is free again');
  });

  test('a deleted generated link is reclaimed from its deletion time on', async (t) => {
    const { store, clock, deps } = setup(t);
    const link = makeLink({ expiresAt: null });
    await insertAll(store, [link]);
    const tombstone: Link = {
      ...link,
      state: 'deleted',
      deletedAt: BASE_MS,
      updatedAt: BASE_MS,
      version: 2,
    };
    assert.equal(await store.links.replaceLink(tombstone, 1), true);

    clock.advance(GRACE_MS - 1);
    assert.equal((await runSweep(deps, clock.now())).reclaimed, 0);
    assert.equal(await codeIsFree(store, link.code), false);
    clock.advance(1);
    assert.equal((await runSweep(deps, clock.now())).reclaimed, 1);
    assert.equal(await codeIsFree(store, link.code), true);
  });

  test('a custom alias is never reclaimed, even years after it expired or was deleted', async (t) => {
    const { store, clock, recycler, deps } = setup(t);
    const expiring = makeLink({ custom: true, code: 'my-alias', expiresAt: BASE_MS + HOUR_MS });
    const deleted = makeLink({
      custom: true,
      code: 'gone-alias',
      state: 'deleted',
      deletedAt: BASE_MS,
      version: 2,
    });
    await insertAll(store, [expiring, deleted]);

    clock.advance(10 * 365 * DAY_MS);
    const report = await runSweep(deps, clock.now());

    assert.equal(report.expired, 1, 'an alias is marked expired like any link');
    assert.equal(report.reclaimed, 0);
    assert.deepEqual(recycler.batches, []);
    assert.equal((await store.links.findLinkById(expiring.id))?.state, 'expired');
    assert.equal(await codeIsFree(store, 'my-alias'), false);
    assert.equal(await codeIsFree(store, 'gone-alias'), false);
  });

  test('the recycler receives exactly the reclaimed codes; the caches hear they are gone', async (t) => {
    const { store, clock, events, recycler, deps } = setup(t);
    const reclaimable = [
      makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS, version: 2 }),
      makeLink({ state: 'deleted', deletedAt: BASE_MS - GRACE_MS - DAY_MS, version: 5 }),
      // Active and long past its expiry: marked by this sweep, then reclaimed by it.
      makeLink({ expiresAt: BASE_MS - 2 * GRACE_MS }),
    ];
    const kept = [
      makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS + 1, version: 2 }),
      makeLink({ state: 'deleted', deletedAt: BASE_MS - DAY_MS, version: 2 }),
      makeLink({ custom: true, state: 'expired', expiresAt: BASE_MS - 3 * GRACE_MS }),
      makeLink({ state: 'disabled', expiresAt: BASE_MS - 3 * GRACE_MS }),
      makeLink({ expiresAt: null }),
    ];
    await insertAll(store, [...reclaimable, ...kept]);

    const report = await runSweep(deps, clock.now());

    assert.equal(report.expired, 1);
    assert.equal(report.reclaimed, 3);
    assert.deepEqual(recycler.codes, sorted(reclaimable.map((link) => link.code)));
    for (const link of reclaimable) assert.equal(await store.links.findLinkById(link.id), null);
    for (const link of kept) assert.deepEqual(await store.links.findLinkById(link.id), link);
    // Each reclaimed link is announced as deleted one version above its last.
    const goneEvents = events.changed.filter((link) => link.state === 'deleted');
    const lastVersions = new Map(reclaimable.map((link) => [link.id, link.version]));
    lastVersions.set(reclaimable[2]!.id, 2); // marked expired (v2) by this sweep first
    assert.deepEqual(
      sorted(goneEvents.map((link) => `${link.code} v${link.version}`)),
      sorted(reclaimable.map((link) => `${link.code} v${lastVersions.get(link.id)! + 1}`)),
    );
  });

  test('works in batches: 35 due links with batchSize 10 are marked in 4 batches', async (t) => {
    const { store, clock, events, deps, yields } = setup(t, { batchSize: 10 });
    const due = Array.from({ length: 35 }, (_, i) => makeLink({ expiresAt: BASE_MS + i }));
    await insertAll(store, due);
    clock.advance(HOUR_MS);

    const report = await runSweep(deps, clock.now());

    assert.equal(report.expired, 35);
    assert.deepEqual(report.batches, { expire: 4, reclaim: 1, purge: 1 });
    // The event loop gets a turn between every two store calls.
    assert.equal(yields(), 4 + 1 + 1 - 1);
    assert.equal(new Set(events.changed.map((link) => link.id)).size, 35);
  });

  test('reclaims in batches too, until none is left', async (t) => {
    const { store, clock, recycler, deps } = setup(t, { batchSize: 10 });
    const links = Array.from({ length: 25 }, (_, i) =>
      makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS - i, version: 2 }),
    );
    await insertAll(store, links);

    const report = await runSweep(deps, clock.now());

    assert.equal(report.reclaimed, 25);
    assert.equal(report.batches.reclaim, 3);
    assert.deepEqual(
      recycler.batches.map((batch) => batch.length),
      [10, 10, 5],
    );
    assert.deepEqual(recycler.codes, sorted(links.map((link) => link.code)));
  });

  test('a recycler that fails leaves the rows in place, their codes held, for the next sweep', async (t) => {
    const { store, clock, recycler, deps } = setup(t);
    const link = makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS, version: 2 });
    await insertAll(store, [link]);
    recycler.failing = true;

    await assert.rejects(runSweep(deps, clock.now()), /pool file not writable/);
    assert.deepEqual(await store.links.findLinkById(link.id), link);
    assert.equal(await codeIsFree(store, link.code), false);

    recycler.failing = false;
    assert.equal((await runSweep(deps, clock.now())).reclaimed, 1);
    assert.deepEqual(recycler.codes, [link.code]);
    assert.equal(await codeIsFree(store, link.code), true);
  });

  test('purges idempotency records older than 24 hours, and only those', async (t) => {
    const { store, clock, deps } = setup(t);
    const old = makeLink({ createdAt: BASE_MS });
    const young = makeLink({ createdAt: BASE_MS + 2 * HOUR_MS });
    const oldClaim = makeClaim({ owner: old.owner, notBefore: 0 });
    const youngClaim = makeClaim({ owner: young.owner, notBefore: 0 });
    await store.links.insertLink(old, oldClaim);
    await store.links.insertLink(young, youngClaim);
    clock.advance(IDEMPOTENCY_WINDOW_MS + HOUR_MS);

    assert.equal((await runSweep(deps, clock.now())).idempotencyPurged, 1);
    assert.equal(await store.links.findIdempotencyRecord(old.owner, oldClaim.key, 0), null);
    assert.notEqual(await store.links.findIdempotencyRecord(young.owner, youngClaim.key, 0), null);
    assert.deepEqual(await store.links.findLinkById(old.id), old);
  });

  test('a reclaimed code given to a new link redirects at once, though L1 held the old link', async (t) => {
    const { store, clock, recycler } = setup(t);
    const cache = new SecondChanceNearLinkCache({
      maxEntries: 100,
      maxBytes: 1 << 20,
      positiveTtlMs: 60_000,
      negativeTtlMs: 10_000,
      jitter: 0.1,
    });
    const knownCodes = new KnownCodes({
      codeScan: store.codeScan,
      batchSize: 100,
      filter: new ScalableBloomFilter({ initialCapacity: 100, falsePositiveRate: 0.01, seed: 1 }),
    });
    const resolver = new RedirectResolver({
      redirects: store.redirects,
      clock,
      cache,
      shared: null,
      knownCodes,
    });
    const deps: SweepDeps = {
      sweep: store.sweep,
      events: resolver,
      recycler,
      reclaimGraceMs: DAY_MS,
    };
    const old = makeLink({ expiresAt: BASE_MS + HOUR_MS, version: 4 });
    await insertAll(store, [old]);
    clock.advance(2 * HOUR_MS);
    assert.equal((await runSweep(deps, clock.now())).expired, 1);
    // Someone asks for the expired code: L1 now holds the old link, expired, at version 5.
    assert.equal((await outcomeOf(resolver.resolve(old.code, ''))).kind, 'not-found');

    clock.advance(DAY_MS);
    assert.equal((await runSweep(deps, clock.now())).reclaimed, 1);
    // A create gets the code back (the pool hands it out, or random draws it): version 1.
    const reborn = makeLink({ code: old.code, createdAt: clock.now(), updatedAt: clock.now() });
    assert.equal((await store.links.insertLink(reborn)).kind, 'inserted');
    resolver.linkCreated(reborn);

    const outcome = await outcomeOf(resolver.resolve(old.code, ''));
    assert.equal(outcome.kind, 'redirect');
    assert.equal(outcome.kind === 'redirect' ? outcome.linkId : null, reborn.id);
  });
});

/** The sweep job on a scheduler of its own, with what it reports and logs. */
function sweepJob(deps: SweepDeps, clock: ManualClock, everyMs = 600_000) {
  const { logger, lines } = capturingLogger();
  const jobs = new JobScheduler(logger);
  const totals: SweepTotals = { runs: 0, failures: 0, expired: 0, reclaimed: 0, lastRunAt: null };
  let afterSweeps = 0;
  jobs.start(
    sweepLinks({
      deps,
      clock,
      everyMs,
      totals,
      afterSweep: () => afterSweeps++,
      logger,
    }),
  );
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const sweepReports = () =>
    logged()
      .filter((line) => line['msg'] === 'sweep finished')
      .map((line) => ({
        expired: line['expired'] as number,
        reclaimed: line['reclaimed'] as number,
        stopped: line['stopped'] as boolean,
      }));
  return { jobs, totals, logged, sweepReports, afterSweeps: () => afterSweeps };
}

describe('the sweep job', () => {
  test('a failed sweep is logged and counted, never rejects, and the next one runs', async (t) => {
    const { store, clock, recycler, deps } = setup(t);
    const link = makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS, version: 2 });
    await insertAll(store, [link]);
    const sweeper = sweepJob(deps, clock);
    t.after(() => sweeper.jobs.stop());
    recycler.failing = true;

    await sweeper.jobs.runNow('sweep-links');
    assert.equal(sweeper.totals.failures, 1);
    assert.equal(sweeper.jobs.failures('sweep-links'), 1);
    const failures = sweeper
      .logged()
      .filter((line) => line['msg'] === 'sweep failed; retrying at the next interval');
    assert.equal(failures.length, 1);
    assert.match(JSON.stringify(failures[0]), /pool file not writable/);
    assert.deepEqual(await store.links.findLinkById(link.id), link);

    recycler.failing = false;
    await sweeper.jobs.runNow('sweep-links');
    assert.deepEqual(
      sweeper.sweepReports().map((r) => r.reclaimed),
      [1],
    );
    assert.equal(sweeper.totals.reclaimed, 1);
    assert.equal(sweeper.totals.runs, 1);
    assert.equal(sweeper.totals.failures, 1);
    assert.equal(sweeper.afterSweeps(), 1, 'what follows a sweep follows only one that finished');
  });

  test('sweeps on its interval; a tick during a sweep joins it', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const { store, clock, deps } = setup(t);
    await insertAll(store, [makeLink({ expiresAt: BASE_MS - 1 })]);
    const sweeper = sweepJob(deps, clock, 600_000);

    t.mock.timers.tick(599_999);
    assert.deepEqual(sweeper.sweepReports(), [], 'not before the interval');
    t.mock.timers.tick(1);
    await sweeper.jobs.runNow('sweep-links');
    assert.deepEqual(
      sweeper.sweepReports().map((r) => r.expired),
      [1],
      'the tick and runNow were one sweep',
    );

    t.mock.timers.tick(600_000);
    await sweeper.jobs.runNow('sweep-links');
    await sweeper.jobs.stop();
    assert.deepEqual(
      sweeper.sweepReports().map((r) => r.expired),
      [1, 0],
    );
    assert.equal(sweeper.jobs.failures('sweep-links'), 0);
  });

  test('stop waits for the running sweep, which ends at its next batch boundary', async (t) => {
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const recycleReached = new Promise<void>((resolve) => (reached = resolve));
    const recycled: string[] = [];
    const { store, clock, deps } = setup(t, {
      batchSize: 2,
      recycler: {
        recycle: (codes) => {
          recycled.push(...codes);
          reached();
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
    });
    const links = Array.from({ length: 5 }, (_, i) =>
      makeLink({ state: 'expired', expiresAt: BASE_MS - GRACE_MS - i, version: 2 }),
    );
    await insertAll(store, links);
    const sweeper = sweepJob(deps, clock);

    const sweep = sweeper.jobs.runNow('sweep-links');
    await recycleReached;
    let stopped = false;
    const stopping = sweeper.jobs.stop().then(() => (stopped = true));
    for (let i = 0; i < 5; i++) await nextTurn();
    assert.equal(stopped, false, 'stop waits while the batch is being recycled');

    release();
    await stopping;
    await sweep;
    assert.deepEqual(sweeper.sweepReports(), [{ expired: 0, reclaimed: 2, stopped: true }]);
    // The batch in hand was finished (recycled, then deleted); the rest waits.
    assert.equal(recycled.length, 2);
    const left = await Promise.all(links.map((link) => store.links.findLinkById(link.id)));
    assert.equal(left.filter((link) => link !== null).length, 3);
  });
});

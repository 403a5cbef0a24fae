import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { monotonicFactory } from 'ulid';
import { SecondChanceNearLinkCache } from '../../src/adapters/memory-cache/second-chance-near-link-cache.js';
import { RedisSharedLinkCache } from '../../src/adapters/redis/redis-shared-link-cache.js';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { cachedLinkOf } from '../../src/domain/cache-entry.js';
import type { Link } from '../../src/domain/link.js';
import type { LinkCodeScan } from '../../src/ports/link-code-scan.js';
import type { RedirectReads } from '../../src/ports/redirect-reads.js';
import type { SharedLinkCache } from '../../src/ports/shared-link-cache.js';
import type { RedirectOutcome } from '../../src/domain/redirect-outcome.js';
import { BloomFilter } from '../../src/codes/bloom-filter.js';
import { ScalableBloomFilter } from '../../src/codes/scalable-bloom-filter.js';
import { createLogger } from '../../src/observability/logger.js';
import { KnownCodes } from '../../src/services/redirect/known-codes.js';
import { RedirectResolver } from '../../src/services/redirect/redirect-resolver.js';
import { outcomeOf } from '../support/outcome-of.js';
import { eventually } from '../support/eventually.js';
import { ManualClock } from '../support/manual-clock.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';

const newId = monotonicFactory();
const START = Date.parse('2026-06-01T12:00:00Z');

/** A real SQLite store whose code reads are counted. */
function countingStore(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'hop-resolver-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const reads = { count: 0 };
  const redirects: RedirectReads = {
    findRedirectByCode: (domain, code) => {
      reads.count++;
      return store.redirects.findRedirectByCode(domain, code);
    },
  };
  return { store, redirects, codeScan: store.codeScan, reads };
}

function makeLink(overrides: Partial<Link> = {}): Link {
  return {
    id: newId(),
    code: `c${Math.random().toString(36).slice(2, 9)}`,
    owner: 'o',
    destination: 'https://example.com/',
    statusCode: 302,
    state: 'active',
    custom: false,
    title: null,
    tags: [],
    createdAt: START,
    updatedAt: START,
    expiresAt: null,
    deletedAt: null,
    version: 1,
    smart: null,
    domain: '',
    preview: null,
    crawlable: false,
    ...overrides,
  };
}

function setup(
  t: TestContext,
  cacheOptions: { maxEntries?: number } = {},
  shared: SharedLinkCache | null = null,
) {
  const { store, redirects, codeScan, reads } = countingStore(t);
  const clock = new ManualClock(START);
  const cache = new SecondChanceNearLinkCache({
    maxEntries: cacheOptions.maxEntries ?? 1000,
    maxBytes: 1 << 20,
    positiveTtlMs: 60_000,
    negativeTtlMs: 10_000,
    jitter: 0.1,
  });
  // Never loaded here: it says "maybe" for every code, as before the first load.
  const knownCodes = makeKnownCodes(codeScan);
  const resolver = new RedirectResolver({ redirects, clock, cache, shared, knownCodes });
  return { store, reads, clock, cache, resolver, knownCodes };
}

function makeKnownCodes(codeScan: LinkCodeScan, batchSize = 100): KnownCodes {
  return new KnownCodes({
    codeScan,
    batchSize,
    filter: new ScalableBloomFilter({ initialCapacity: 1000, falsePositiveRate: 0.001, seed: 1 }),
  });
}

describe('RedirectResolver over L1 and a real SQLite store', () => {
  test('a hit is answered synchronously, without a store read', async (t) => {
    const { store, reads, resolver } = setup(t);
    const link = makeLink();
    await store.links.insertLink(link);
    const first = resolver.resolve(link.code, '');
    assert.ok(first instanceof Promise, 'the first read goes to the store');
    assert.equal((await outcomeOf(first)).kind, 'redirect');
    const second = resolver.resolve(link.code, '');
    assert.ok(!(second instanceof Promise), 'the second is an L1 hit');
    assert.deepEqual(second, {
      kind: 'redirect',
      linkId: link.id,
      code: link.code,
      status: 302,
      location: 'https://example.com/',
      cacheControl: 'private, no-store',
      crawlable: false,
    });
    assert.equal(reads.count, 1);
  });

  test('concurrent misses for one code make one store read', async (t) => {
    const { store, reads, resolver } = setup(t);
    const link = makeLink();
    await store.links.insertLink(link);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => outcomeOf(resolver.resolve(link.code, ''))),
    );
    assert.equal(reads.count, 1);
    assert.equal(resolver.stats.coalescedReads, 49);
    assert.ok(outcomes.every((o) => o.kind === 'redirect'));
  });

  test('an unknown code is cached as absent; creating it replaces that at once', async (t) => {
    const { store, reads, resolver } = setup(t);
    assert.equal((await outcomeOf(resolver.resolve('Later12', ''))).kind, 'not-found');
    assert.equal((resolver.resolve('Later12', '') as { kind: string }).kind, 'not-found');
    assert.equal(reads.count, 1, 'the negative entry answered the second');
    const link = makeLink({ code: 'Later12' });
    await store.links.insertLink(link);
    resolver.linkCreated(link);
    const outcome = resolver.resolve('Later12', '');
    assert.ok(!(outcome instanceof Promise));
    assert.equal(outcome.kind, 'redirect');
  });

  test('a store error is never cached as not found', async (t) => {
    const { store, resolver } = setup(t);
    const link = makeLink();
    await store.links.insertLink(link);
    await store.close();
    await assert.rejects(Promise.resolve(resolver.resolve(link.code, '')), {
      kind: 'store-unavailable',
    });
    await assert.rejects(Promise.resolve(resolver.resolve(link.code, '')), {
      kind: 'store-unavailable',
    });
  });

  test('expiry is checked on every hit, against the clock', async (t) => {
    const { store, clock, resolver } = setup(t);
    const link = makeLink({ expiresAt: START + 5_000 });
    await store.links.insertLink(link);
    assert.equal((await outcomeOf(resolver.resolve(link.code, ''))).kind, 'redirect');
    clock.advance(5_000);
    const hit = resolver.resolve(link.code, '');
    assert.ok(!(hit instanceof Promise));
    assert.equal(hit.kind, 'not-found');
  });

  test('a change invalidates; a slow read of the old version cannot put it back', async (t) => {
    const { store, resolver, cache } = setup(t);
    const v1 = makeLink();
    await store.links.insertLink(v1);
    const slowRead = resolver.resolve(v1.code, ''); // in flight with version 1
    const v2: Link = { ...v1, state: 'disabled', version: 2 };
    await store.links.replaceLink(v2, 1);
    resolver.linkChanged(v2);
    await slowRead;
    cache.set(v1.code, {
      found: true,
      linkId: v1.id,
      code: v1.code,
      version: 1,
      state: 'active',
      expiresAt: null,
      status: 302,
      location: v1.destination,
      fixedOutcome: null,
      smart: null,
      crawlable: false,
    });
    const after = resolver.resolve(v1.code, '');
    assert.equal((await outcomeOf(after)).kind, 'not-found', 'version 1 never overwrote version 2');
  });

  test('L1 is bounded by its entry count', async (t) => {
    const { store, cache, resolver } = setup(t, { maxEntries: 10 });
    for (let i = 0; i < 30; i++) {
      const link = makeLink();
      await store.links.insertLink(link);
      await resolver.resolve(link.code, '');
    }
    assert.equal(cache.size, 10);
  });

  test('impossible codes never reach the cache or the store', (t) => {
    const { reads, resolver, cache } = setup(t);
    for (const path of ['', 'a b', 'a/b', 'x'.repeat(65), 'caf\u00e9', 'a+b']) {
      assert.equal((resolver.resolve(path, '') as { kind: string }).kind, 'invalid');
    }
    assert.equal(reads.count, 0);
    assert.equal(cache.size, 0);
  });

  test('reserved words, in any case, are our routes: said so once, never read', async (t) => {
    const { reads, resolver, cache } = setup(t);
    for (const path of ['healthz', 'Healthz', 'V1', 'favicon.ico', 'OpenAPI.json']) {
      assert.equal((resolver.resolve(path, '') as { kind: string }).kind, 'reserved', path);
      assert.equal(resolver.resolveFromMemory(path, '')?.kind, 'reserved', path);
    }
    assert.equal(reads.count, 0);
    assert.equal(cache.size, 0);
    // A word that only starts like one is a code, read like any other.
    assert.equal((await outcomeOf(resolver.resolve('Healthz1', ''))).kind, 'not-found');
    assert.equal(reads.count, 1);
  });
});

/** `setup`, over the store's own reads: a miss is read at once (ADR 0155). */
function setupReadingNow(t: TestContext, shared: SharedLinkCache | null = null) {
  const setUp = setup(t, {}, shared);
  const { store, clock, cache, knownCodes } = setUp;
  const reads = { now: 0, later: 0 };
  const redirects: RedirectReads = {
    findRedirectByCode: (domain, code) => {
      reads.later++;
      return store.redirects.findRedirectByCode(domain, code);
    },
    findRedirectByCodeNow: (domain, code) => {
      reads.now++;
      return store.redirects.findRedirectByCodeNow(domain, code);
    },
  };
  const resolver = new RedirectResolver({ redirects, clock, cache, shared, knownCodes });
  return { store, reads, resolver };
}

describe('RedirectResolver over a store that reads at once (ADR 0155)', () => {
  test('a miss is read and answered in the same call; the next is an L1 hit', async (t) => {
    const { store, reads, resolver } = setupReadingNow(t);
    const link = makeLink();
    await store.links.insertLink(link);
    const first = resolver.resolve(link.code, '');
    assert.ok(!(first instanceof Promise), 'no promise for a read made at once');
    assert.equal(first.kind, 'read');
    assert.ok(first.kind === 'read');
    assert.equal(first.source, 'store');
    assert.equal(locationOf(first.outcome), link.destination);
    const second = resolver.resolve(link.code, '');
    assert.ok(!(second instanceof Promise));
    assert.equal(second.kind, 'redirect', 'an L1 hit: the outcome itself');
    assert.deepEqual(reads, { now: 1, later: 0 });
    assert.equal(resolver.stats.l1Misses, 1);
    assert.equal(resolver.stats.l1Hits, 1);
  });

  test('an unknown code is read once and kept as absent', async (t) => {
    const { reads, resolver } = setupReadingNow(t);
    const first = resolver.resolve('Nobody1', '');
    assert.ok(!(first instanceof Promise) && first.kind === 'read');
    assert.equal(first.outcome.kind, 'not-found');
    const second = resolver.resolve('Nobody1', '');
    assert.ok(!(second instanceof Promise));
    assert.equal(second.kind, 'not-found');
    assert.deepEqual(reads, { now: 1, later: 0 });
  });

  test('a failed read is a rejected promise, never cached as not found', async (t) => {
    const { store, reads, resolver } = setupReadingNow(t);
    const link = makeLink();
    await store.links.insertLink(link);
    await store.close();
    const failed = resolver.resolve(link.code, '');
    assert.ok(failed instanceof Promise, 'the caller answers 503 from the rejection');
    await assert.rejects(failed, { kind: 'store-unavailable' });
    await assert.rejects(Promise.resolve(resolver.resolve(link.code, '')), {
      kind: 'store-unavailable',
    });
    assert.equal(reads.now, 2, 'read again: nothing was cached');
  });

  test('with L2 configured, a miss goes through L2 and is awaited', async (t) => {
    if (!(await requireRedis(t))) return;
    const { shared } = await openSharedCache(t);
    const { store, reads, resolver } = setupReadingNow(t, shared);
    const link = makeLink();
    await store.links.insertLink(link);
    const first = resolver.resolve(link.code, '');
    assert.ok(first instanceof Promise);
    assert.equal(locationOf(await outcomeOf(first)), link.destination);
    assert.deepEqual(reads, { now: 0, later: 1 });
    assert.equal(resolver.stats.l2Misses, 1);
  });
});

describe('RedirectResolver with the known codes loaded', () => {
  test('before the first load every miss reads the store, as without the filter', async (t) => {
    const { reads, resolver, knownCodes } = setup(t);
    assert.equal(knownCodes.ready, false);
    assert.equal((await outcomeOf(resolver.resolve('Unknown1', ''))).kind, 'not-found');
    assert.equal(reads.count, 1);
  });

  test('an unknown code is a 404 at once: no store read, no negative entry', async (t) => {
    const { store, reads, resolver, knownCodes, cache } = setup(t);
    const link = makeLink();
    await store.links.insertLink(link);
    assert.equal(await knownCodes.catchUp(), 1);
    assert.equal(knownCodes.ready, true);

    const unknown = resolver.resolve('Unknown1', '');
    assert.ok(!(unknown instanceof Promise), 'answered synchronously');
    assert.equal(unknown.kind, 'not-found');
    assert.equal(reads.count, 0);
    assert.equal(cache.size, 0, 'scanners cannot push real links out of L1');
    assert.equal(resolver.stats.readsSkipped, 1);

    assert.equal((await outcomeOf(resolver.resolve(link.code, ''))).kind, 'redirect');
    assert.equal(reads.count, 1, 'a known code is read');
  });

  test('a link created here is known at once', async (t) => {
    const { store, resolver, knownCodes } = setup(t);
    await knownCodes.catchUp();
    const link = makeLink();
    await store.links.insertLink(link);
    resolver.linkCreated(link);
    const outcome = resolver.resolve(link.code, '');
    assert.ok(!(outcome instanceof Promise));
    assert.equal(outcome.kind, 'redirect');
  });

  test('a link another process created is found by the next catch-up', async (t) => {
    const { store, resolver, knownCodes } = setup(t);
    await knownCodes.catchUp();
    const elsewhere = makeLink();
    await store.links.insertLink(elsewhere); // not told to this resolver
    assert.equal((resolver.resolve(elsewhere.code, '') as RedirectOutcome).kind, 'not-found');
    assert.equal(await knownCodes.catchUp(), 1, 'only the new code is read');
    assert.equal((await outcomeOf(resolver.resolve(elsewhere.code, ''))).kind, 'redirect');
  });

  test('the first load reads in batches and misses nothing', async (t) => {
    const { store, codeScan } = countingStore(t);
    const batch = Array.from({ length: 1050 }, () => makeLink());
    await store.links.importLinks(batch);
    const knownCodes = makeKnownCodes(codeScan, 100);
    const [first, joined] = await Promise.all([knownCodes.catchUp(), knownCodes.catchUp()]);
    assert.equal(first, 1050);
    assert.equal(joined, 1050, 'a second call while one runs joins it');
    assert.ok(batch.every((link) => knownCodes.mightExist(link.code)));
    // The filter does not count a code whose bits were all set already (a false positive,
    // 0.1% here, on random codes): now and then one of the 1050 is not counted. Fewer than
    // 1040, or more than 1050, would be a real fault.
    assert.ok(
      knownCodes.count >= 1040 && knownCodes.count <= 1050,
      `knownCodes.count ${knownCodes.count}`,
    );
  });

  test("the first load sizes the filter by the store's estimate: one layer, not two", async (t) => {
    const { store, codeScan } = countingStore(t);
    const links = Array.from({ length: 1050 }, () => makeLink());
    await store.links.importLinks(links);
    const sized = makeKnownCodes(codeScan);
    await sized.catchUp();
    assert.ok(links.every((link) => sized.mightExist(link.code)));
    const unsized = makeKnownCodes({
      scanCodes: (cursor, limit) => codeScan.scanCodes(cursor, limit),
      estimateCodeCount: () => Promise.resolve(0),
    });
    await unsized.catchUp();
    const layerOf = (capacity: number) => new BloomFilter(capacity, 0.001, 1).byteLength;
    // Without an estimate, 1050 codes fill the first layer (1000) and start a second (4000).
    assert.equal(unsized.byteLength, layerOf(1000) + layerOf(4000));
    assert.ok(
      sized.byteLength >= layerOf(1050) && sized.byteLength <= layerOf(2 * 1050),
      `sized for 1050 codes and some room: ${sized.byteLength} bytes`,
    );
    // A catch-up later reserves nothing again: the filter holds codes by then.
    const later = makeLink();
    await store.links.insertLink(later);
    const bytes = sized.byteLength;
    assert.equal(await sized.catchUp(), 1);
    assert.equal(sized.byteLength, bytes);
    assert.equal(sized.mightExist(later.code), true);
  });

  test('a failed catch-up keeps its place and the next one resumes', async (t) => {
    const { store, codeScan } = countingStore(t);
    await store.links.insertLink(makeLink());
    let fail = false;
    const failing: LinkCodeScan = {
      scanCodes: (cursor, limit) =>
        fail ? Promise.reject(new Error('store down')) : codeScan.scanCodes(cursor, limit),
      estimateCodeCount: () => codeScan.estimateCodeCount(),
    };
    const knownCodes = makeKnownCodes(failing);
    assert.equal(await knownCodes.catchUp(), 1);
    const later = makeLink();
    await store.links.insertLink(later);
    fail = true;
    await assert.rejects(knownCodes.catchUp(), /store down/);
    assert.equal(knownCodes.ready, false, 'a failing catch-up stops trusting the filter');
    assert.equal(knownCodes.mightExist(later.code), true, 'so misses read the store');
    assert.equal(knownCodes.mightExist('NeverMade1'), true);
    fail = false;
    assert.equal(await knownCodes.catchUp(), 1);
    assert.equal(knownCodes.ready, true);
    assert.equal(knownCodes.mightExist(later.code), true);
  });

  test('a false positive still reads the store and is counted', async (t) => {
    const { store, reads, resolver, knownCodes } = setup(t);
    await store.links.importLinks(Array.from({ length: 1000 }, () => makeLink()));
    await knownCodes.catchUp();
    // Find a code this filter lets through though it was never added (~1 in 1,000 do).
    let probe = 0;
    while (!knownCodes.mightExist(`Fp${probe}x`) && probe < 1_000_000) probe++;
    assert.equal((await outcomeOf(resolver.resolve(`Fp${probe}x`, ''))).kind, 'not-found');
    assert.equal(reads.count, 1);
    assert.equal(resolver.stats.filterFalsePositives, 1);
  });
});

/** L2 on the shared Redis, under a prefix of this test's own, removed after it. */
async function openSharedCache(
  t: TestContext,
): Promise<{ shared: RedisSharedLinkCache; admin: Redis; prefix: string }> {
  const prefix = uniquePrefix();
  const shared = new RedisSharedLinkCache({
    target: { url: REDIS_URL },
    prefix,
    positiveTtlMs: 60_000,
    negativeTtlMs: 10_000,
    floorTtlMs: 60_000,
    jitter: 0.1,
    timeoutMs: 50,
    logger: createLogger('silent'),
  });
  const admin = new Redis(REDIS_URL);
  t.after(async () => {
    await shared.close();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });
  await shared.ready();
  return { shared, admin, prefix };
}

function entryOf(link: Link) {
  return cachedLinkOf(
    link.id,
    link.code,
    link.version,
    link.state,
    link.expiresAt,
    link.statusCode,
    link.destination,
  );
}

function locationOf(outcome: RedirectOutcome): string | null {
  return outcome.kind === 'redirect' ? outcome.location : null;
}

describe('RedirectResolver over L1, a real Redis L2 and a real SQLite store', () => {
  test('an L2 entry older than an invalidation seen here is a miss: the store answers', async (t) => {
    if (!(await requireRedis(t))) return;
    const { shared, admin, prefix } = await openSharedCache(t);
    const { store, reads, resolver } = setup(t, {}, shared);
    const v1 = makeLink({ destination: 'https://example.com/old' });
    await store.links.insertLink(v1);
    assert.equal(locationOf(await outcomeOf(resolver.resolve(v1.code, ''))), v1.destination);
    await eventually(async () => (await shared.get(v1.code))?.version === 1, 'the L2 fill');
    const [key] = await admin.keys(`${prefix}*${v1.code}`);
    assert.ok(key !== undefined);
    const before = await admin.get(key);
    assert.ok(before !== null);

    const v2: Link = { ...v1, destination: 'https://example.com/new', version: 2 };
    await store.links.replaceLink(v2, 1);
    resolver.linkChanged(v2);
    await eventually(async () => (await admin.get(key)) === '~2', 'the floor in Redis');
    // Redis comes back with its data from before the edit (a stall that outlasted the
    // write, a replica promoted without it, an AOF restore).
    await admin.set(key, before, 'PX', 60_000);

    const readsBefore = reads.count;
    const outcome = await outcomeOf(resolver.resolve(v1.code, ''));
    assert.equal(locationOf(outcome), v2.destination, 'never the old destination');
    assert.equal(reads.count, readsBefore + 1, 'the store answered');
    assert.equal(resolver.stats.l2Stale, 1);
    assert.equal(resolver.stats.l2Hits, 0);
    assert.equal(resolver.stats.l2Misses, 2, 'the first fill and the stale entry');
    await eventually(
      async () => (await shared.get(v1.code))?.version === 2,
      'the store read repairing L2',
    );
  });

  test('an L2 read in flight when an invalidation lands here is not served', async (t) => {
    if (!(await requireRedis(t))) return;
    const { shared } = await openSharedCache(t);
    const { store, resolver } = setup(t, {}, shared);
    const v1 = makeLink({ destination: 'https://example.com/old' });
    await store.links.insertLink(v1);
    shared.set(v1.code, entryOf(v1)); // in L2, not in this L1
    await eventually(async () => (await shared.get(v1.code))?.version === 1, 'the L2 fill');

    const v2: Link = { ...v1, state: 'disabled', version: 2 };
    await store.links.replaceLink(v2, 1);
    // The GET is on the connection before the floor, so it comes back with version 1.
    const pending = resolver.resolve(v1.code, '');
    assert.ok(pending instanceof Promise);
    resolver.linkChanged(v2);
    assert.equal((await pending).outcome.kind, 'not-found', 'the disable is not undone');
    assert.equal(resolver.stats.l2Stale, 1);
  });
});

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { principalFor, type Principal, type Scope } from '../../src/domain/principal.js';
import type { ClickEventLog, ClickEventRecord } from '../../src/ports/event-log.js';
import type { Store } from '../../src/ports/store.js';
import {
  EventHub,
  type EventSubscriber,
  type HubEvent,
  type StreamEnd,
} from '../../src/services/events/event-hub.js';
import { LinkPlaces } from '../../src/services/events/link-places.js';
import type { StreamPosition } from '../../src/services/events/stream-position.js';
import { makeLink, type OpenStore } from '../contract/store-factories.js';
import { eventually as eventuallyWithin } from '../support/eventually.js';

/**
 * On PostgreSQL an event is read only once every older transaction in the cluster has
 * ended (ADR 0127), and the shared test cluster runs other files' transactions at the same
 * time: waits are bounded at 60 s (6,000 polls) rather than the default 10.
 */
const eventually = (check: () => Promise<boolean>, what: string) =>
  eventuallyWithin(check, what, 6_000);
import { openFreshPgStore, openFreshSqliteStore } from '../support/fresh-stores.js';
import { readSettled } from '../support/settled-events.js';
import { whenPostgres } from '../support/require-postgres.js';

/** What a stream was given: `<type> <link id>` per event, and the position after each. */
class Collector implements EventSubscriber {
  readonly seen: string[] = [];
  readonly positions: StreamPosition[] = [];
  ended: StreamEnd | null = null;
  /** When set, each delivery reports a full buffer, and `ready` waits for `drain`. */
  full = false;
  /** The buffer fills again once this many events have been seen. */
  fullAt: number | null = null;
  #drainWaiters: (() => void)[] = [];

  deliver(event: HubEvent, position: StreamPosition): boolean {
    this.seen.push(
      event.kind === 'link'
        ? `${event.record.type} ${event.record.link.id}`
        : `link.clicked ${event.record.linkId} ${event.record.clicks}`,
    );
    this.positions.push(position);
    if (this.seen.length === this.fullAt) this.full = true;
    return !this.full;
  }

  ready(): Promise<void> {
    if (!this.full) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** The client has read what it was sent. */
  drain(): void {
    this.full = false;
    for (const resolve of this.#drainWaiters.splice(0)) resolve();
  }

  end(reason: StreamEnd): void {
    this.ended = reason;
  }
}

/**
 * A click log in memory, as the ClickEventLog port describes it (positions are sequence
 * numbers): the store's own is not on this branch yet (issue 23), and the hub's filtering
 * of clicks and its hand-over are what is tested here.
 */
class MemoryClickLog implements ClickEventLog {
  readonly events: ClickEventRecord[] = [];

  append(linkId: string, clicks: number): void {
    const none = {};
    this.events.push({
      position: String(this.events.length + 1),
      linkId,
      second: 0,
      clicks,
      botClicks: 0,
      countries: none,
      devices: none,
      browsers: none,
      oses: none,
      referrers: none,
      languages: none,
      recordedAt: 0,
    });
  }

  async latest(): Promise<string> {
    return this.events.at(-1)?.position ?? '';
  }

  async after(position: string, limit: number): Promise<readonly ClickEventRecord[]> {
    const from = position === '' ? 0 : Number(position);
    return this.events.slice(from, from + limit);
  }

  async forgetBefore(): Promise<number> {
    return 0;
  }
}

function principal(
  owner: string,
  options: { admin?: boolean; scopes?: Scope[]; domains?: string[] } = {},
): Principal {
  return principalFor({
    id: `key-${owner}-${Math.random()}`,
    owner,
    admin: options.admin ?? false,
    scopes: options.scopes ?? null,
    domains: options.domains ?? null,
  });
}

/**
 * A fresh store and a hub over it; after the test the hub closes first (its read in
 * progress ends before the store does), and no read of the logs may have failed.
 */
async function setUp(
  t: TestContext,
  openStore: OpenStore,
  clicks: ClickEventLog | null = null,
  options: {
    maxPendingEvents?: number;
    maxStallMs?: number;
    streamsPerKey?: number;
    pollIntervalMs?: number;
  } = {},
): Promise<{ store: Store; hub: EventHub }> {
  const { store, cleanup } = await openStore();
  const errors: unknown[] = [];
  const hub = new EventHub({
    links: store.linkEvents,
    clicks,
    places: new LinkPlaces(store.links),
    pollIntervalMs: options.pollIntervalMs ?? 5,
    streamsPerKey: options.streamsPerKey ?? 100,
    ...(options.maxPendingEvents === undefined
      ? {}
      : { maxPendingEvents: options.maxPendingEvents }),
    ...(options.maxStallMs === undefined ? {} : { maxStallMs: options.maxStallMs }),
    onError: (error) => errors.push(error),
  });
  t.after(async () => {
    await hub.close();
    await cleanup();
    assert.deepEqual(errors, []);
  });
  return { store, hub };
}

async function insert(store: Store, owner: string, domain = ''): Promise<string> {
  const link = makeLink({ owner, domain });
  assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  return link.id;
}

async function openStream(
  hub: EventHub,
  who: Principal,
  from: StreamPosition | null = null,
): Promise<Collector> {
  const collector = new Collector();
  (await hub.open(who, from, collector)).start();
  return collector;
}

/**
 * Two of alice's streams, one whose client's buffer is full, and `creates` links of
 * hers made: the other has seen them all, the full one only the first.
 */
async function oneBehind(
  store: Store,
  hub: EventHub,
  creates: number,
): Promise<{ slow: Collector; fine: Collector }> {
  const slow = await openStream(hub, principal('alice'));
  const fine = await openStream(hub, principal('alice'));
  slow.full = true;
  for (let i = 0; i < creates; i++) await insert(store, 'alice');
  await eventually(async () => fine.seen.length === creates, `${creates} creates`);
  return { slow, fine };
}

function eventHubSuite(name: string, openStore: OpenStore): void {
  describe(`EventHub on ${name}`, () => {
    test('a stream resumed while links keep changing gets every later event once, in order', async (t) => {
      const { store, hub } = await setUp(t, openStore);
      const alice = principal('alice');
      const live = await openStream(hub, alice);
      const total = 150;
      for (let i = 0; i < 40; i++) await insert(store, 'alice');
      await eventually(async () => live.seen.length === 40, 'the first creates live');
      const from = live.positions[39] ?? null;
      // Changes the resumed stream must replay, then more while it replays and joins.
      for (let i = 40; i < 60; i++) await insert(store, 'alice');
      const writing = (async () => {
        for (let i = 60; i < total; i++) {
          await insert(store, 'alice');
          await new Promise(setImmediate);
        }
      })();
      const resumed = await openStream(hub, alice, from);
      await writing;
      await eventually(async () => live.seen.length === total, 'every create live');
      await eventually(async () => resumed.seen.length >= total - 40, 'every later create resumed');
      assert.deepEqual(resumed.seen, live.seen.slice(40));
      // From the start of the logs: everything.
      const whole = await openStream(hub, alice, { links: '', clicks: '' });
      await eventually(async () => whole.seen.length >= total, 'the whole log');
      assert.deepEqual(whole.seen, live.seen);
    });

    test('the hand-over skips what the replay sent, whether the hub had read it or not', async (t) => {
      const clicks = new MemoryClickLog();
      // The hub polls only when a stream opens: the test says when it reads.
      const { store, hub } = await setUp(t, openStore, clicks, { pollIntervalMs: 3_600_000 });
      const link = await insert(store, 'alice');
      // Readable first (on PostgreSQL it may wait for other files' transactions): the
      // streams below start after it and must not get it late.
      await readSettled(store.linkEvents, '', 1);
      const pollNow = async () => {
        (await hub.open(principal('poke'), null, new Collector())).close();
      };
      const click = (n: number) => `link.clicked ${link} ${n}`;
      clicks.append(link, 1);
      const live = await openStream(hub, principal('alice'));
      const from = { links: await store.linkEvents.latest(), clicks: '' };
      // 1. Events the hub reads while a resuming stream waits to start: pending, and
      //    replayed too.
      const early = new Collector();
      const earlyStream = await hub.open(principal('alice'), from, early);
      clicks.append(link, 2);
      clicks.append(link, 3);
      await pollNow();
      assert.deepEqual(live.seen, [click(2), click(3)]);
      // 2. Events the replay reads before the hub does: they come live afterwards.
      const ahead = new Collector();
      const aheadStream = await hub.open(principal('alice'), from, ahead);
      clicks.append(link, 4);
      earlyStream.start();
      aheadStream.start();
      await eventually(async () => early.seen.length >= 4 && ahead.seen.length >= 4, 'replays');
      await pollNow();
      clicks.append(link, 5);
      await pollNow();
      await eventually(async () => live.seen.length === 4, 'the live stream has 2 to 5');
      assert.deepEqual(live.seen, [2, 3, 4, 5].map(click));
      await eventually(async () => early.seen.length >= 5 && ahead.seen.length >= 5, 'click 5');
      assert.deepEqual(early.seen, [1, 2, 3, 4, 5].map(click));
      assert.deepEqual(ahead.seen, [1, 2, 3, 4, 5].map(click));
    });

    test('owners see their own links, admins all, keys limited to domains only theirs', async (t) => {
      const { store, hub } = await setUp(t, openStore);
      await store.domains.insertDomain({
        host: 'go.acme.com',
        https: true,
        rootRedirect: null,
        notFoundRedirect: null,
        createdAt: 0,
        updatedAt: 0,
      });
      const alice = await openStream(hub, principal('alice'));
      const admin = await openStream(hub, principal('root', { admin: true }));
      const aliceOnAcme = await openStream(hub, principal('alice', { domains: ['go.acme.com'] }));
      const bobs = await insert(store, 'bob');
      const alices = await insert(store, 'alice');
      const alicesOnAcme = await insert(store, 'alice', 'go.acme.com');
      await eventually(async () => admin.seen.length === 3, 'the admin sees all three');
      await eventually(async () => alice.seen.length === 2, 'alice sees hers');
      await eventually(async () => aliceOnAcme.seen.length === 1, 'the acme key sees one');
      assert.deepEqual(admin.seen, [
        `link.created ${bobs}`,
        `link.created ${alices}`,
        `link.created ${alicesOnAcme}`,
      ]);
      assert.deepEqual(alice.seen, [`link.created ${alices}`, `link.created ${alicesOnAcme}`]);
      assert.deepEqual(aliceOnAcme.seen, [`link.created ${alicesOnAcme}`]);
    });

    test('clicks go to those who may see the link and hold analytics:read', async (t) => {
      const clicks = new MemoryClickLog();
      const { store, hub } = await setUp(t, openStore, clicks);
      const alices = await insert(store, 'alice');
      const bobs = await insert(store, 'bob');
      // Readable first: streams opened after them must not get the creates late.
      await readSettled(store.linkEvents, '', 2);
      const alice = await openStream(hub, principal('alice'));
      const blind = await openStream(hub, principal('alice', { scopes: ['links:read'] }));
      const admin = await openStream(hub, principal('root', { admin: true }));
      clicks.append(bobs, 7);
      clicks.append(alices, 3);
      clicks.append('01JUNKNOWNLINK0000000000000', 1);
      clicks.append(alices, 4);
      await eventually(async () => admin.seen.length === 3, 'the admin sees the known links');
      await eventually(async () => alice.seen.length === 2, "alice sees her link's clicks");
      assert.deepEqual(admin.seen, [
        `link.clicked ${bobs} 7`,
        `link.clicked ${alices} 3`,
        `link.clicked ${alices} 4`,
      ]);
      assert.deepEqual(alice.seen, [`link.clicked ${alices} 3`, `link.clicked ${alices} 4`]);
      // Its link's change is seen, its clicks are not.
      await store.links.replaceLink({ ...(await linkOf(store, alices)), version: 2 }, 1);
      await eventually(async () => blind.seen.length === 1, 'the change');
      assert.deepEqual(blind.seen, [`link.updated ${alices}`]);
      // Resuming from before the change and the clicks' start replays both logs (links
      // first: each log is in its own order, the two are not ordered between them).
      await eventually(async () => alice.seen.length === 3, 'alice sees the change too');
      const beforeChange = alice.positions[1];
      assert.ok(beforeChange !== undefined);
      const again = await openStream(hub, principal('alice'), {
        links: beforeChange.links,
        clicks: '',
      });
      await eventually(async () => again.seen.length >= 3, 'the change, then the clicks again');
      assert.deepEqual(again.seen, [
        `link.updated ${alices}`,
        `link.clicked ${alices} 3`,
        `link.clicked ${alices} 4`,
      ]);
    });

    test('a stream whose buffer fills waits until it drains, then gets the rest in order', async (t) => {
      const { store, hub } = await setUp(t, openStore);
      const { slow, fine } = await oneBehind(store, hub, 4);
      // The first went out and filled the buffer; the rest wait for it to drain.
      assert.equal(slow.seen.length, 1);
      assert.equal(slow.ended, null);
      slow.drain();
      await eventually(async () => slow.seen.length === 4, 'the rest, once drained');
      assert.deepEqual(slow.seen, fine.seen);
      assert.deepEqual(slow.positions, fine.positions);
      const more = await insert(store, 'alice');
      await eventually(async () => slow.seen.length === 5, 'a later create, live again');
      assert.equal(slow.seen.at(-1), `link.created ${more}`);
      assert.equal(hub.openStreams, 2);
    });

    test('a stream that falls behind again while it catches up loses nothing', async (t) => {
      const { store, hub } = await setUp(t, openStore);
      const { slow, fine } = await oneBehind(store, hub, 6);
      assert.equal(slow.seen.length, 1);
      // It drains, takes two of the five it missed, and is full again.
      slow.fullAt = 3;
      slow.drain();
      await eventually(async () => slow.seen.length === 3, 'two more, then full');
      await insert(store, 'alice');
      await eventually(async () => fine.seen.length === 7, 'a seventh create');
      slow.fullAt = null;
      slow.drain();
      await eventually(async () => slow.seen.length >= 7, 'the rest');
      assert.deepEqual(slow.seen, fine.seen);
      assert.deepEqual(slow.positions, fine.positions);
    });

    test('a stream behind by more than the pending bound still gets every event once, in order', async (t) => {
      const { store, hub } = await setUp(t, openStore, null, { maxPendingEvents: 2 });
      const { slow, fine } = await oneBehind(store, hub, 6);
      assert.equal(slow.seen.length, 1);
      assert.equal(slow.ended, null);
      slow.drain();
      // What passed the bound is read again from the log.
      await eventually(async () => slow.seen.length >= 6, 'the rest, once drained');
      assert.deepEqual(slow.seen, fine.seen);
      assert.deepEqual(slow.positions, fine.positions);
      const more = await insert(store, 'alice');
      await eventually(async () => fine.seen.length === 7, 'a later create');
      await eventually(async () => slow.seen.length === 7, 'a later create, live again');
      assert.deepEqual(slow.seen, fine.seen);
      assert.equal(slow.seen.at(-1), `link.created ${more}`);
      assert.equal(hub.openStreams, 2);
    });

    test('a resuming stream whose live events pass the bound while it waits reads them from the log', async (t) => {
      const clicks = new MemoryClickLog();
      const { store, hub } = await setUp(t, openStore, clicks, { maxPendingEvents: 2 });
      const alices = await insert(store, 'alice');
      // The two logs are not ordered between them: the create must be readable before the
      // clicks for the replay to send it first (on PostgreSQL it waits for older
      // transactions of other test files).
      await readSettled(store.linkEvents, '', 1);
      const live = await openStream(hub, principal('alice'));
      // Joined, not started: live events pile up as they would behind a long replay.
      const resuming = new Collector();
      const subscription = await hub.open(principal('alice'), { links: '', clicks: '' }, resuming);
      for (let i = 1; i <= 5; i++) clicks.append(alices, i);
      await eventually(async () => live.seen.length === 5, 'five clicks');
      subscription.start();
      await eventually(async () => resuming.seen.length >= 6, 'the create and five clicks');
      assert.deepEqual(resuming.seen, [
        `link.created ${alices}`,
        ...[1, 2, 3, 4, 5].map((n) => `link.clicked ${alices} ${n}`),
      ]);
      assert.equal(resuming.ended, null);
    });

    test('a client that takes nothing for the stall bound is ended, the others go on', async (t) => {
      const { store, hub } = await setUp(t, openStore, null, { maxStallMs: 50 });
      const stuck = await openStream(hub, principal('alice'));
      const fine = await openStream(hub, principal('alice'));
      stuck.full = true;
      for (let i = 0; i < 2; i++) await insert(store, 'alice');
      await eventually(async () => fine.seen.length === 2, 'two creates');
      await eventually(async () => stuck.ended === 'too-slow', 'the stuck stream ended');
      assert.equal(stuck.seen.length, 1);
      assert.equal(hub.openStreams, 1);
    });

    test('closing ends every stream and refuses new ones', async (t) => {
      const { hub } = await setUp(t, openStore);
      const one = await openStream(hub, principal('alice'));
      const two = await openStream(hub, principal('bob'));
      await hub.close();
      assert.equal(one.ended, 'closing');
      assert.equal(two.ended, 'closing');
      await assert.rejects(hub.open(principal('alice'), null, new Collector()), {
        kind: 'store-unavailable',
      });
    });

    test('a key past its bound is refused with rate-limited', async (t) => {
      const { hub } = await setUp(t, openStore, null, { streamsPerKey: 1 });
      const key = principal('alice');
      const first = await hub.open(key, null, new Collector());
      await assert.rejects(hub.open(key, null, new Collector()), { kind: 'rate-limited' });
      first.close();
      (await hub.open(key, null, new Collector())).close();
    });
  });
}

async function linkOf(store: Store, id: string) {
  const link = await store.links.findLinkById(id);
  assert.ok(link !== null);
  return link;
}

eventHubSuite('SQLite', openFreshSqliteStore);

await whenPostgres('EventHub on PostgreSQL (needs PostgreSQL)', () => {
  eventHubSuite('PostgreSQL', openFreshPgStore);
});

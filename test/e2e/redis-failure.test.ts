import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { deferrer } from '../support/deferred-cleanups.js';
import { eventually } from '../support/eventually.js';
import { requireRedisServer, startOwnRedis } from '../support/own-redis.js';
import { startHop, stopHop, type ServeProcess, metric } from '../support/hop-process.js';

const ADMIN_KEY = 'hop_e2e_redis_failure_admin_key_0123';
const PREFIX = 'hop-e2e-redis-failure:';
const LINKS = 200;
/** L1 far smaller than the link set: most requests of the load must go to L2 or the store. */
const L1_MAX_ENTRIES = 20;
/** A few codes asked for often, so that L1 hits are part of the load too. */
const HOT_LINKS = 5;
const WORKERS = 16;
/** Generous poll budgets (10 ms apart): bounds on a wait, never claims about speed. */
const POLLS = 6000;

const BREAKER = 'hop_l2_breaker_state';
const L2_HITS = 'hop_l2_requests_total{result="hit"}';
const STORE_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="store"}';
const ERROR_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="error"}';

interface Link {
  readonly code: string;
  readonly destination: string;
}

async function createLink(hop: ServeProcess, destination: string): Promise<Link> {
  const response = await fetch(`${hop.url}/v1/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ destination }),
  });
  const text = await response.text();
  assert.equal(response.status, 201, text);
  return { code: (JSON.parse(text) as { code: string }).code, destination };
}

/** One redirect; a description of what went wrong, or null when it was the right 302. */
async function redirectFails(hop: ServeProcess, link: Link): Promise<string | null> {
  try {
    const response = await fetch(`${hop.url}/${link.code}`, { redirect: 'manual' });
    const body = await response.text();
    const location = response.headers.get('location');
    if (response.status === 302 && location === link.destination) return null;
    return `/${link.code}: ${response.status} location=${location} body=${body.slice(0, 200)}`;
  } catch (error) {
    return `/${link.code}: ${String(error)}`;
  }
}

type Phase = 'redis up' | 'redis down' | 'redis back';

/** Redirects over loopback from WORKERS concurrent loops until stopped, every answer checked. */
function startLoad(hop: ServeProcess, links: readonly Link[]) {
  const served: Record<Phase, number> = { 'redis up': 0, 'redis down': 0, 'redis back': 0 };
  const failures: string[] = [];
  let phase: Phase = 'redis up';
  let stopped = false;
  const loop = async (worker: number) => {
    for (let i = worker; !stopped; i += WORKERS) {
      // Every fourth request a hot code (mostly L1); the rest cycle through all the links,
      // which an L1 of L1_MAX_ENTRIES cannot hold: those go to L2 or the store.
      const link = i % 4 === 0 ? links[i % HOT_LINKS]! : links[i % links.length]!;
      const startedIn = phase;
      const failure = await redirectFails(hop, link);
      if (failure === null) served[phase]++;
      else failures.push(`[started ${startedIn}, ended ${phase}] ${failure}`);
    }
  };
  const loops = Promise.all(Array.from({ length: WORKERS }, (_, worker) => loop(worker)));
  return {
    served,
    failures,
    enter(next: Phase) {
      phase = next;
    },
    async stop() {
      stopped = true;
      await loops;
    },
  };
}

describe('SPEC §9 "Redis down" with a real Redis killed under load', () => {
  test('redirects never fail; the breaker opens, then closes and L2 serves again', async (t) => {
    if (!requireRedisServer(t)) return;
    const defer = deferrer(t);
    const redis = await startOwnRedis(t);
    const hopDir = mkdtempSync(join(tmpdir(), 'hop-redis-failure-'));
    defer(() => rmSync(hopDir, { recursive: true, force: true }));
    const hop = await startHop({
      HOP_DATA_DIR: hopDir,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_REDIS_URL: redis.url,
      HOP_REDIS_PREFIX: PREFIX,
      HOP_L1_MAX_ENTRIES: String(L1_MAX_ENTRIES),
    });
    defer(async () => {
      hop.child.kill('SIGKILL');
      await hop.exited;
    });
    const admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    admin.on('error', () => {}); // it is down on purpose for part of the test
    defer(() => admin.disconnect());
    /** The server's log and the Redis log, kept in every failure message (STYLE.md). */
    const logs = () => `hop:\n${hop.output()}\nredis-server:\n${redis.output()}`;

    const links: Link[] = [];
    for (let batch = 0; batch < LINKS; batch += 10) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          createLink(hop, `https://example.com/redis-failure/${batch + i}`),
        ),
      );
      links.push(...created);
    }

    const load = startLoad(hop, links);
    // Not awaited: should hop hang, killing it (the clean-up after this one) ends the loops.
    defer(() => void load.stop());
    const failuresSoFar = () =>
      `${load.failures.length} failed redirects; the first:\n${load.failures.slice(0, 10).join('\n')}`;

    // Redis up: the breaker is closed and L2 answers.
    await eventually(
      async () =>
        load.served['redis up'] >= 2 * LINKS &&
        (await metric(hop, BREAKER)) === 0 &&
        (await metric(hop, L2_HITS)) > 0,
      `L2 serving before the kill (${failuresSoFar()})`,
      POLLS,
    );

    // Redis dies under load.
    load.enter('redis down');
    await redis.kill();
    await eventually(
      async () => (await metric(hop, BREAKER)) === 2,
      `the breaker opening (${failuresSoFar()})\n${logs()}`,
      POLLS,
    );
    // With L1 holding a tenth of the links, the load goes on from the store while Redis is down.
    const storeAtOpen = await metric(hop, STORE_REDIRECTS);
    const servedAtOpen = load.served['redis down'];
    await eventually(
      async () =>
        load.served['redis down'] >= servedAtOpen + 2 * LINKS &&
        (await metric(hop, STORE_REDIRECTS)) >= storeAtOpen + LINKS,
      `redirects from the store while Redis is down (${failuresSoFar()})`,
      POLLS,
    );

    // Redis comes back, empty, on the same port: hop reconnects by itself.
    await redis.start();
    load.enter('redis back');
    const l2HitsAtRestart = await metric(hop, L2_HITS);
    await eventually(
      async () => (await metric(hop, BREAKER)) === 0,
      `the breaker closing (${failuresSoFar()})\n${logs()}`,
      POLLS,
    );
    await eventually(
      async () =>
        load.served['redis back'] >= 2 * LINKS && (await metric(hop, L2_HITS)) > l2HitsAtRestart,
      `L2 hits resuming under load (${failuresSoFar()})\n${logs()}`,
      POLLS,
    );
    await load.stop();

    assert.equal(load.failures.length, 0, `every redirect is the right 302: ${failuresSoFar()}`);
    assert.equal(await metric(hop, ERROR_REDIRECTS), 0, 'no redirect answered 503');
    t.diagnostic(`redirects served: ${JSON.stringify(load.served)}`);

    // Deterministically, with the load stopped: a code in Redis but evicted from L1 is an
    // L2 hit. Every code asked for after the probe goes ahead of it in L1's LRU order, so
    // once L1_MAX_ENTRIES others have been, the probe is out of L1.
    const probe = links[HOT_LINKS]!;
    const others = links.filter((link) => link !== probe).slice(0, 2 * L1_MAX_ENTRIES);
    const evictProbe = async () => {
      for (const other of others) assert.equal(await redirectFails(hop, other), null);
    };
    // Redis came back empty, so the probe's key is there only once hop filled L2 again.
    await admin.connect();
    await eventually(
      async () => {
        if ((await admin.exists(PREFIX + probe.code)) === 1) return true;
        await evictProbe();
        assert.equal(await redirectFails(hop, probe), null); // an L1 miss fills L2
        return false;
      },
      `hop filling L2 with /${probe.code} again\n${logs()}`,
      100,
    );
    // Each attempt is one request for the evicted probe, alone, so the counters show what
    // answered it. More than one attempt only if Redis missed hop's 8 ms cache timeout.
    let attempts = 0;
    const l2Answers = async () => {
      attempts++;
      await evictProbe();
      const hits = await metric(hop, L2_HITS);
      const storeReads = await metric(hop, STORE_REDIRECTS);
      assert.equal(await redirectFails(hop, probe), null);
      const l2Hit = (await metric(hop, L2_HITS)) === hits + 1;
      assert.equal(await metric(hop, STORE_REDIRECTS), storeReads + (l2Hit ? 0 : 1));
      return l2Hit;
    };
    await eventually(l2Answers, `an L2 hit for /${probe.code}, evicted from L1\n${logs()}`, 20);
    assert.equal(await metric(hop, BREAKER), 0, 'the breaker is closed');
    t.diagnostic(`L2 hit for the evicted probe after ${attempts} attempt(s)`);

    await stopHop(hop);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startKilledAfter } from '../support/deferred-cleanups.js';
import { eventually } from '../support/eventually.js';
import { stopHop, type ServeProcess, metric, logLines } from '../support/hop-process.js';
import { ownPostgresForTest } from '../support/own-postgres.js';

const ADMIN_KEY = 'hop_e2e_pg_failure_admin_key_012345';
const SCHEMA = 'hop_pg_failure';
const LINKS = 20;
/** The first CACHED links are requested before the database stops: they sit in L1. */
const CACHED = 10;
/** Generous poll budgets (10 ms apart): bounds on a wait, never claims about speed. */
const POLLS = 6000;
const LOST_CONNECTION = 'a PostgreSQL connection was lost; reconnecting on next use';
const PROBLEM_JSON = /^application\/problem\+json\b/;

interface Link {
  readonly code: string;
  readonly destination: string;
}

function createRequest(hop: ServeProcess, destination: string): Promise<Response> {
  return fetch(`${hop.url}/v1/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ destination }),
  });
}

async function createLink(hop: ServeProcess, destination: string): Promise<Link> {
  const response = await createRequest(hop, destination);
  const text = await response.text();
  assert.equal(response.status, 201, text);
  return { code: (JSON.parse(text) as { code: string }).code, destination };
}

/**
 * One redirect: 'redirected' for the right 302, 'unavailable' for a 503 problem with
 * Retry-After; anything else (a 404, a wrong Location, a 500) fails the test at once.
 */
async function redirect(hop: ServeProcess, link: Link): Promise<'redirected' | 'unavailable'> {
  const response = await fetch(`${hop.url}/${link.code}`, { redirect: 'manual' });
  const body = await response.text();
  const what = `/${link.code}: ${response.status} location=${response.headers.get('location')} body=${body}`;
  if (response.status === 302) {
    assert.equal(response.headers.get('location'), link.destination, what);
    return 'redirected';
  }
  assert.equal(response.status, 503, `never anything but the right 302 or a 503: ${what}`);
  assert.match(response.headers.get('content-type') ?? '', PROBLEM_JSON, what);
  assert.ok(response.headers.get('retry-after'), `a 503 says when to retry: ${what}`);
  assert.equal((JSON.parse(body) as { status: number }).status, 503, what);
  return 'unavailable';
}

const L1_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="l1"}';
const ERROR_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="error"}';

function assertAlive(hop: ServeProcess, when: string): void {
  assert.equal(hop.child.exitCode, null, `hop exited ${when}:\n${hop.output()}`);
  assert.equal(hop.child.signalCode, null, `hop was killed ${when}:\n${hop.output()}`);
}

describe('SPEC §9 "Database down" with a real PostgreSQL stopped and started again', () => {
  test('PostgreSQL primary stopped: cached links redirect, others 503 (never 404), creates 503 + Retry-After; all recovers without restarting hop', async (t) => {
    const own = await ownPostgresForTest(t, 'hop-pg-failure-');
    if (own === null) return;
    const { db, dataDir, defer } = own;
    const env = {
      HOP_DATA_DIR: dataDir,
      HOP_DATABASE_URL: db.primary.url,
      HOP_DATABASE_SCHEMA: SCHEMA,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_L1_TTL: '10m',
    };

    // Another instance creates the links, so that none is in the L1 of the one under test
    // (a create writes its link through to its own L1).
    const creator = await startKilledAfter(defer, env);
    const links: Link[] = [];
    for (let i = 0; i < LINKS; i++) {
      links.push(await createLink(creator, `https://example.com/pg-failure/${i}`));
    }
    await stopHop(creator);
    const cached = links.slice(0, CACHED);
    const uncached = links.slice(CACHED);

    const hop = await startKilledAfter(defer, env);
    const logs = () => `hop:\n${hop.output()}\n${db.logs()}`;
    // Every code in the known-codes filter: from here on a miss is a store read, not a 404.
    await eventually(
      async () => (await metric(hop, 'hop_known_codes_ready')) === 1,
      `the known codes loaded\n${logs()}`,
      POLLS,
    );
    for (const link of cached) assert.equal(await redirect(hop, link), 'redirected');
    assert.equal((await fetch(`${hop.url}/readyz`)).status, 200, 'ready before the stop');

    // The database stops (fast: its clients, hop's idle pooled connections, are cut off).
    await db.primary.stop('fast');
    const l1Before = await metric(hop, L1_REDIRECTS);
    const errorsBefore = await metric(hop, ERROR_REDIRECTS);
    for (let round = 0; round < 3; round++) {
      for (const link of cached) {
        assert.equal(await redirect(hop, link), 'redirected', `cached /${link.code} while down`);
      }
      for (const link of uncached) {
        assert.equal(await redirect(hop, link), 'unavailable', `uncached /${link.code} while down`);
      }
    }
    assert.equal(await metric(hop, L1_REDIRECTS), l1Before + 3 * CACHED, 'cached: from L1');
    assert.equal(
      await metric(hop, ERROR_REDIRECTS),
      errorsBefore + 3 * (LINKS - CACHED),
      'uncached: counted as errors',
    );

    const refused = await createRequest(hop, 'https://example.com/pg-failure/while-down');
    const refusedBody = await refused.text();
    assert.equal(refused.status, 503, refusedBody);
    assert.ok(refused.headers.get('retry-after'), 'a refused create says when to retry');
    assert.match(refused.headers.get('content-type') ?? '', PROBLEM_JSON);
    assert.equal((JSON.parse(refusedBody) as { status: number }).status, 503);

    const notReady = await fetch(`${hop.url}/readyz`);
    assert.equal(notReady.status, 503, 'not ready while its store is down');
    assert.match(notReady.headers.get('content-type') ?? '', PROBLEM_JSON);
    await notReady.text();
    assert.equal((await fetch(`${hop.url}/healthz`)).status, 200, 'alive while its store is down');

    // The idle connections the stop cut are logged as warnings, and do not end hop.
    await eventually(
      async () => logLines(hop).some((line) => line.level === 40 && line.msg === LOST_CONNECTION),
      `a warning for the lost connections\n${logs()}`,
      POLLS,
    );
    assertAlive(hop, 'while the database was down');

    // The database comes back on the same port: hop recovers by itself, never restarted.
    await db.primary.start();
    const created: Link[] = [];
    const after = 'https://example.com/pg-failure/after';
    await eventually(
      async () => {
        const response = await createRequest(hop, after);
        const text = await response.text();
        if (response.status === 503) return false;
        assert.equal(response.status, 201, text);
        created.push({ code: (JSON.parse(text) as { code: string }).code, destination: after });
        return true;
      },
      `a create answering 201 again\n${logs()}`,
      POLLS,
    );
    assert.equal(await redirect(hop, created[0]!), 'redirected', 'the new link, from L1');
    for (const link of uncached) {
      await eventually(
        async () => (await redirect(hop, link)) === 'redirected',
        `uncached /${link.code} redirecting again\n${logs()}`,
        POLLS,
      );
    }
    for (const link of cached) assert.equal(await redirect(hop, link), 'redirected');
    await eventually(
      async () => {
        const ready = await fetch(`${hop.url}/readyz`);
        await ready.text();
        return ready.status === 200;
      },
      `/readyz ready again\n${logs()}`,
      POLLS,
    );

    assertAlive(hop, 'after the database came back');
    const lines = logLines(hop);
    const lost = lines.filter((line) => line.msg === LOST_CONNECTION);
    t.diagnostic(`${lost.length} lost-connection warnings`);
    assert.deepEqual(
      lines.filter((line) => line.level >= 50),
      [],
      'no error or fatal log line: a database outage is a warning',
    );
    await stopHop(hop);
  });
});

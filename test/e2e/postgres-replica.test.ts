import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { ulid } from 'ulid';
import { startKilledAfter } from '../support/deferred-cleanups.js';
import { eventually } from '../support/eventually.js';
import { stopHop, type ServeProcess, metric, logLines } from '../support/hop-process.js';
import {
  ownPostgresForTest,
  type OwnPostgres,
  type OwnPostgresNode,
} from '../support/own-postgres.js';

const ADMIN_KEY = 'hop_e2e_pg_replica_admin_key_012345';
const SCHEMA = 'hop_pg_replica';
/** Links per group; each group of codes is requested for the first time in one phase. */
const GROUP = 10;
/** Generous poll budgets (10 ms apart): bounds on a wait, never claims about speed. */
const POLLS = 6000;
const LOST_CONNECTION = 'a PostgreSQL connection was lost; reconnecting on next use';
/** application_name of hop's pool of redirect reads (src/adapters/postgres/pg-store.ts). */
const REDIRECT_POOL = 'hop-redirects';
const PRIMARY_REDIRECT_POOL = 'hop-redirects-primary';

interface Link {
  readonly id: string;
  readonly code: string;
  readonly destination: string;
}

async function api(
  hop: ServeProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${hop.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text), text };
}

async function createLink(hop: ServeProcess, destination: string): Promise<Link> {
  const created = await api(hop, 'POST', '/v1/links', { destination });
  assert.equal(created.status, 201, created.text);
  const { id, code } = created.json as { id: string; code: string };
  return { id, code, destination };
}

/** One redirect: its status and Location, whatever they are. */
async function follow(
  hop: ServeProcess,
  code: string,
): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${hop.url}/${code}`, { redirect: 'manual' });
  const body = await response.text();
  const location = response.headers.get('location');
  if (response.status !== 302 && response.status !== 404) {
    throw new Error(`/${code}: ${response.status} location=${location} body=${body}`);
  }
  return { status: response.status, location };
}

async function assertRedirects(hop: ServeProcess, link: Link, what: string): Promise<void> {
  assert.deepEqual(
    await follow(hop, link.code),
    { status: 302, location: link.destination },
    `${what}: /${link.code}`,
  );
}

const L1_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="l1"}';
const STORE_REDIRECTS = 'hop_redirect_duration_seconds_count{outcome="store"}';

/** Sessions of hop's redirect pool connected to this server. */
async function redirectSessions(node: OwnPostgresNode): Promise<number> {
  const rows = await node.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
    [REDIRECT_POOL],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Who read `code` by code on this server, from its statement log: the application_name
 * of each session ('hop-redirects' for hop's redirect pool, 'hop-redirects-primary' for its redirect reads on
 * the primary, 'hop' for its other primary pool).
 */
function readersOf(node: OwnPostgresNode, code: string): string[] {
  const lines = node.log().split('\n');
  const readers: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    // The redirect's read names the domain ('' the default: ADR 0115) and then the code.
    const detail = /^app=(\S*) pid=(\d+): DETAIL: {2}parameters: \$1 = '', \$2 = '(.*)'$/.exec(
      lines[i]!,
    );
    if (detail === null || detail[3] !== code) continue;
    // A message's LOG and DETAIL lines are written together, one after the other.
    const statement = lines[i - 1]!;
    if (
      statement.startsWith(`app=${detail[1]} pid=${detail[2]}: LOG:  execute`) &&
      statement.endsWith('FROM links WHERE domain = $1 AND code = $2')
    ) {
      readers.push(detail[1]!);
    }
  }
  return readers;
}

/** Until the log of `node` shows `code` read by `reader` (the log is written asynchronously). */
async function readBy(node: OwnPostgresNode, code: string, reader: string): Promise<void> {
  await eventually(
    async () => readersOf(node, code).includes(reader),
    `the ${node.role}'s log showing /${code} read by ${reader}\n${node.log()}`,
    POLLS,
  );
}

/** Whether this server holds the code (on the replica: whether replay has brought it). */
async function holds(node: OwnPostgresNode, code: string): Promise<boolean> {
  const rows = await node.query(`SELECT 1 FROM ${SCHEMA}.links WHERE code = $1`, [code]);
  return rows.length === 1;
}

async function pauseReplay(db: OwnPostgres): Promise<void> {
  const replica = db.replica!;
  await replica.query('SELECT pg_wal_replay_pause()');
  await eventually(
    async () => {
      const rows = await replica.query<{ state: string }>(
        'SELECT pg_get_wal_replay_pause_state() AS state',
      );
      return rows[0]?.state === 'paused';
    },
    'replay paused on the replica',
    POLLS,
  );
}

async function resumeReplay(db: OwnPostgres): Promise<void> {
  await db.replica!.query('SELECT pg_wal_replay_resume()');
}

/** Until the replica has replayed everything the primary has written so far. */
async function replicaCaughtUp(db: OwnPostgres): Promise<void> {
  const rows = await db.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const lsn = rows[0]!.lsn;
  await eventually(
    async () => {
      const replayed = await db.replica!.query<{ done: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [lsn],
      );
      return replayed[0]?.done === true;
    },
    `the replica replaying up to ${lsn}\n${db.logs()}`,
    POLLS,
  );
}

interface Setup {
  readonly db: OwnPostgres;
  readonly hop: ServeProcess;
  /** Links another instance created, in groups of GROUP, none of them in hop's L1. */
  readonly groups: readonly (readonly Link[])[];
  readonly logs: () => string;
}

/**
 * A primary and its streaming replica; `groups` groups of links created by another
 * instance (so none is in the L1 of the one under test) and replayed on the replica; then
 * the hop under test, reading redirects from the replica, with every code known to it.
 */
async function setUp(t: TestContext, groups: number): Promise<Setup | null> {
  const own = await ownPostgresForTest(t, 'hop-pg-replica-', {
    replica: true,
    logStatements: true,
  });
  if (own === null) return null;
  const { db, dataDir, defer } = own;
  const env = {
    HOP_DATA_DIR: dataDir,
    HOP_DATABASE_URL: db.primary.url,
    HOP_DATABASE_REPLICA_URL: db.replica!.url,
    HOP_DATABASE_SCHEMA: SCHEMA,
    HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
    HOP_L1_TTL: '10m',
    // Where a read goes is under test, not how fast: at the default 30 ms a replica read on
    // a loaded CI machine can time out and fall back to the primary (which is right, and
    // tested below by stopping the replica).
    HOP_STORE_TIMEOUT: '5s',
  };
  const creator = await startKilledAfter(defer, env);
  const created: Link[][] = [];
  for (let group = 0; group < groups; group++) {
    const links: Link[] = [];
    for (let i = 0; i < GROUP; i++) {
      links.push(await createLink(creator, `https://example.com/pg-replica/${group}/${i}`));
    }
    created.push(links);
  }
  await stopHop(creator);
  await replicaCaughtUp(db);

  const hop = await startKilledAfter(defer, env);
  const logs = () => `hop:\n${hop.output()}\n${db.logs()}`;
  await eventually(
    async () => (await metric(hop, 'hop_known_codes_ready')) === 1,
    `the known codes loaded\n${logs()}`,
    POLLS,
  );
  return { db, hop, groups: created, logs };
}

describe('hop serve with a PostgreSQL streaming replica (SPEC §4, §9)', () => {
  test('redirect reads go to the replica; a replica miss and a stopped replica fall back to the primary', async (t) => {
    const setup = await setUp(t, 3);
    if (setup === null) return;
    const { db, hop, logs } = setup;
    const replica = db.replica!;
    const [first, second, third] = setup.groups as [Link[], Link[], Link[]];

    // (a) Misses are read on the replica: hop's redirect pool is connected to it and not
    // to the primary, and the replica's statement log shows each code read there.
    for (const link of first) await assertRedirects(hop, link, 'a miss read on the replica');
    assert.ok((await redirectSessions(replica)) > 0, `hop's redirect pool is on the replica`);
    assert.equal(await redirectSessions(db.primary), 0, `and not on the primary`);
    for (const link of first) await readBy(replica, link.code, REDIRECT_POOL);
    for (const link of first) {
      assert.deepEqual(
        readersOf(db.primary, link.code),
        [],
        `/${link.code} not read on the primary`,
      );
    }

    // (b) Read-your-writes while the replica lags (replay paused: it receives, not applies).
    await pauseReplay(db);
    // A link created on this instance redirects at once: its create wrote it through to L1.
    const l1Before = await metric(hop, L1_REDIRECTS);
    const mine = await createLink(hop, 'https://example.com/pg-replica/created-here');
    await assertRedirects(hop, mine, 'created on this instance, asked for at once');
    assert.equal(await metric(hop, L1_REDIRECTS), l1Before + 1, 'answered from L1');
    assert.equal(await holds(replica, mine.code), false, 'the replica has not replayed it');
    assert.deepEqual(
      [...readersOf(replica, mine.code), ...readersOf(db.primary, mine.code)],
      [],
      'no read at all',
    );

    // A link another instance created, written straight into the primary. Until hop's
    // known codes catch up with it (about every second: SPEC §5's broadcast of creates
    // needs Redis) it is a 404 made without any read (and not cached); then the replica's
    // miss is read again from the primary: a 302, never a cached "not found".
    const theirs = {
      id: ulid(),
      code: `elsewhere${Date.now().toString(36)}`,
      destination: 'https://example.com/pg-replica/created-elsewhere',
    };
    await db.primary.query(
      `INSERT INTO ${SCHEMA}.links (id, code, owner, destination, status_code, state, custom,
         title, tags, created_at, updated_at, expires_at, deleted_at, version)
       SELECT $1, $2, owner, $3, 302, 'active', false, NULL, '[]', $4, $4, NULL, NULL, 1
       FROM ${SCHEMA}.links LIMIT 1`,
      [theirs.id, theirs.code, theirs.destination, Date.now()],
    );
    const storeBefore = await metric(hop, STORE_REDIRECTS);
    let notYetKnown = 0;
    await eventually(
      async () => {
        const answer = await follow(hop, theirs.code);
        if (answer.status === 404) {
          notYetKnown++;
          return false;
        }
        assert.deepEqual(answer, { status: 302, location: theirs.destination });
        return true;
      },
      `/${theirs.code} redirecting once hop knows the code\n${logs()}`,
      POLLS,
    );
    t.diagnostic(`${notYetKnown} 404s before hop's known codes caught up with the insert`);
    assert.equal(await metric(hop, STORE_REDIRECTS), storeBefore + 1, 'answered by a store read');
    assert.equal(await holds(replica, theirs.code), false, 'so the primary answered it');
    // Both reads in the servers' logs: the miss on the replica, then the read on the primary.
    await readBy(replica, theirs.code, REDIRECT_POOL);
    await readBy(db.primary, theirs.code, PRIMARY_REDIRECT_POOL);
    await resumeReplay(db);
    await replicaCaughtUp(db);
    assert.equal(await holds(replica, theirs.code), true);

    // (c) The replica stops: misses are read on the primary instead, never a 503.
    await replica.stop('fast');
    for (const link of second) await assertRedirects(hop, link, 'replica stopped');
    for (const link of second) await readBy(db.primary, link.code, PRIMARY_REDIRECT_POOL);
    await eventually(
      async () => logLines(hop).some((line) => line.level === 40 && line.msg === LOST_CONNECTION),
      `a warning for the replica connections the stop cut\n${logs()}`,
      POLLS,
    );
    // The replica starts again: reads go back to it by themselves.
    await replica.start();
    await replicaCaughtUp(db);
    for (const link of third) await assertRedirects(hop, link, 'replica back');
    for (const link of third) await readBy(replica, link.code, REDIRECT_POOL);
    await eventually(
      async () => (await redirectSessions(replica)) > 0,
      `hop's redirect pool reconnected to the replica\n${logs()}`,
      POLLS,
    );
    for (const link of [...first, ...second, ...third, mine, theirs]) {
      await assertRedirects(hop, link, 'every link at the end');
    }

    assert.equal(hop.child.exitCode, null, 'hop is still running');
    assert.deepEqual(
      logLines(hop).filter((line) => line.level >= 50),
      [],
      'no error or fatal log line: a replica outage is a warning',
    );
    await stopHop(hop);
  });

  test('an edit or a disable on this instance is seen by its very next redirect while the replica lags (SPEC §5)', async (t) => {
    const setup = await setUp(t, 1);
    if (setup === null) return;
    const { db, hop } = setup;
    const [edited, disabled] = setup.groups[0] as [Link, Link];
    await assertRedirects(hop, edited, 'before the edit');
    await assertRedirects(hop, disabled, 'before the disable');

    // The replica lags: it holds the links as they were before the changes below.
    await pauseReplay(db);
    const destination = 'https://example.com/pg-replica/edited';
    const patched = await api(hop, 'PATCH', `/v1/links/${edited.id}`, { destination });
    assert.equal(patched.status, 200, patched.text);
    const off = await api(hop, 'POST', `/v1/links/${disabled.id}/disable`);
    assert.equal(off.status, 200, off.text);

    const rowsOf = (node: OwnPostgresNode) =>
      node.query<{ code: string; destination: string; state: string; version: number }>(
        `SELECT code, destination, state, version FROM ${SCHEMA}.links WHERE code IN ($1, $2) ORDER BY code`,
        [edited.code, disabled.code],
      );
    const onPrimary = await rowsOf(db.primary);
    const onReplica = await rowsOf(db.replica!);
    t.diagnostic(`primary: ${JSON.stringify(onPrimary)}; replica: ${JSON.stringify(onReplica)}`);
    assert.notDeepEqual(onReplica, onPrimary, 'the replica has not replayed the changes');

    // SPEC §5: "Single instance: the change is visible to the very next request."
    // Neither is in L1 any more (a change drops it): both are read from the store.
    assert.deepEqual(
      {
        edited: await follow(hop, edited.code),
        disabled: await follow(hop, disabled.code),
      },
      {
        edited: { status: 302, location: destination },
        disabled: { status: 404, location: null },
      },
      'the edited link goes to its new destination and the disabled one nowhere, whatever the lagging replica still holds',
    );
    assert.equal(
      await metric(hop, 'hop_stale_reads_total{tier="store"}'),
      2,
      'both replica reads were refused as stale and read again from the primary',
    );
    await resumeReplay(db);
    await stopHop(hop);
  });
});

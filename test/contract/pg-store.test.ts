// npm test starts it early: a long file (scripts/run-tests.ts), not the last to end.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import { PgStore } from '../../src/adapters/postgres/pg-store.js';
import { openFreshPgStore, pgStoreOptions } from '../support/fresh-stores.js';
import {
  applyPgMigrations,
  loadPgMigrations,
  PG_MIGRATIONS,
} from '../../src/adapters/postgres/pg-migrations.js';
import {
  assertBotsSplitOut,
  CLICKS_BEFORE_BOTS_APART,
  migrationsBefore,
  READ_HOUR_TOTALS,
  READ_TOTALS,
} from '../support/bot-click-migration.js';
import { runClickStoreContract } from './click-store-contract.js';
import { runClickLogsContract } from './click-logs-contract.js';
import { domainStoreContract } from './domain-store-contract.js';
import { runRedirectAllowanceContract } from './redirect-allowance-contract.js';
import { runStoreContract } from './store-contract.js';
import { readSettled } from '../support/settled-events.js';
import { makeClaim, makeLink, makeOwner } from './store-factories.js';
import {
  dropSchema,
  POSTGRES_URL,
  uniqueSchema,
  whenPostgres,
} from '../support/require-postgres.js';

const options = pgStoreOptions;

/** A store on a fresh schema, closed and dropped after the test. */
async function openSchemaStore(t: TestContext, schema = uniqueSchema()): Promise<PgStore> {
  const store = await PgStore.open(options(schema));
  t.after(async () => {
    await store.close();
    await dropSchema(schema);
  });
  return store;
}

/**
 * A link inserted by a transaction left open on a connection of its own (COMMIT it with
 * `slow`): it takes its transaction id and seq now and commits whenever the test says.
 */
async function insertInOpenTransaction(t: TestContext, schema: string) {
  const slow = new pg.Client({ connectionString: POSTGRES_URL });
  await slow.connect();
  // A failed test's schema drop may end this session (dropSchema): not an error of its own.
  slow.on('error', () => undefined);
  t.after(() => slow.end());
  await slow.query(`SET search_path = ${schema}`);
  await slow.query('BEGIN');
  const late = makeLink();
  await slow.query(
    `INSERT INTO links (id, code, owner, destination, status_code, state, custom, tags,
       created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, 302, 'active', false, '[]', 0, 0, 1)`,
    [late.id, late.code, late.owner, late.destination],
  );
  return { slow, late };
}

await whenPostgres('PgStore (needs PostgreSQL)', () => {
  const openFreshStore = openFreshPgStore;

  runStoreContract('PgStore', openFreshStore);

  describe('Store contract: PgStore domains', () => {
    domainStoreContract(openFreshStore);
  });

  runClickStoreContract('PgClickStore', async (t) => (await openSchemaStore(t)).clicks);
  runClickLogsContract('PgClickEventLog, PgVisitLog', async (t) => openSchemaStore(t));

  // Two stores, each with its own pools, on one schema: two instances.
  runRedirectAllowanceContract('PgRedirectAllowance', async (t) => {
    const schema = uniqueSchema();
    const first = await openSchemaStore(t, schema);
    const second = await PgStore.open(options(schema));
    t.after(() => second.close());
    return [first, second];
  });

  describe('PgStore specifics', () => {
    const allVersions = loadPgMigrations().map((migration) => migration.version);

    test('a fresh schema gets every migration; a second store on it applies none', async (t) => {
      const schema = uniqueSchema();
      const first = await openSchemaStore(t, schema);
      assert.deepEqual(first.migrationsAppliedAtOpen, allVersions);
      const second = await PgStore.open(options(schema));
      t.after(() => second.close());
      assert.deepEqual(second.migrationsAppliedAtOpen, []);
    });

    test("migration 0004 splits bots' clicks out of an older schema's totals", async (t) => {
      const schema = uniqueSchema();
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      t.after(async () => {
        await client.end();
        await dropSchema(schema);
      });
      await applyPgMigrations(client, schema, migrationsBefore(t, PG_MIGRATIONS, 4));
      await client.query(`SET search_path = ${schema}`);
      await client.query(CLICKS_BEFORE_BOTS_APART);
      // 0004 and whatever came after it: the split is 0004's.
      assert.equal((await applyPgMigrations(client, schema))[0], 4);
      assertBotsSplitOut(
        (await client.query(READ_TOTALS)).rows,
        (await client.query(READ_HOUR_TOTALS)).rows,
      );
    });

    test('instances starting together apply the migrations once', async (t) => {
      const schema = uniqueSchema();
      const stores = await Promise.all(
        Array.from({ length: 4 }, () => PgStore.open(options(schema))),
      );
      t.after(async () => {
        await Promise.all(stores.map((store) => store.close()));
        await dropSchema(schema);
      });
      const applied = stores.map((store) => store.migrationsAppliedAtOpen);
      assert.equal(applied.filter((versions) => versions.length > 0).length, 1);
      assert.deepEqual(applied.flat(), allVersions);
    });

    test('two stores on one schema see each other: one code, one link', async (t) => {
      const schema = uniqueSchema();
      const server = await openSchemaStore(t, schema);
      const cli = await PgStore.open(options(schema));
      t.after(() => cli.close());
      const link = makeLink();
      assert.equal((await cli.links.insertLink(link)).kind, 'inserted');
      assert.deepEqual(await server.links.findLinkByCode('', link.code), link);
      assert.deepEqual(await server.links.insertLink(makeLink({ code: link.code })), {
        kind: 'code-taken',
      });
    });

    test('20 concurrent creates with one idempotency key: one link, 19 replays of it', async (t) => {
      const store = await openSchemaStore(t);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.links.insertLink(makeLink({ owner }), claim)),
      );
      const inserted = results.filter((result) => result.kind === 'inserted');
      assert.equal(inserted.length, 1);
      const winner = inserted[0]?.kind === 'inserted' ? inserted[0].link : null;
      for (const result of results) {
        if (result.kind === 'replayed') assert.deepEqual(result.record.link, winner);
      }
      assert.equal(results.filter((result) => result.kind === 'replayed').length, 19);
      const listed = await store.links.listLinks({ owner, limit: 100, nowMs: 0 });
      assert.deepEqual(
        listed.map((link) => link.id),
        [winner?.id],
      );
    });

    test('a link committed by a transaction that began before the scan is still found', async (t) => {
      const schema = uniqueSchema();
      const store = await openSchemaStore(t, schema);
      // A transaction that takes its id first and commits last: its row sorts before rows
      // already scanned, and must still be found by the next pass.
      const { slow, late } = await insertInOpenTransaction(t, schema);
      const early = makeLink();
      await store.links.insertLink(early);
      const seen = new Set<string>();
      let scan = await store.codeScan.scanCodes(null, 100);
      for (const code of scan.codes) seen.add(code);
      assert.ok(seen.has(early.code));
      assert.ok(!seen.has(late.code));
      await slow.query('COMMIT');
      scan = await store.codeScan.scanCodes(scan.cursor, 100);
      for (const code of scan.codes) seen.add(code);
      assert.ok(seen.has(late.code), 'the late commit is found by the next pass');
    });

    test('a link event committed after a later one is read after it, never skipped', async (t) => {
      const schema = uniqueSchema();
      const store = await openSchemaStore(t, schema);
      const start = await store.linkEvents.latest();
      // A transaction that takes its seq first and commits last (ADR 0127).
      const { slow, late } = await insertInOpenTransaction(t, schema);
      const early = makeLink();
      await store.links.insertLink(early);
      // The early commit waits behind the open transaction: nothing can be skipped.
      assert.deepEqual(await store.linkEvents.after(start, 10), []);
      await slow.query('COMMIT');
      const events = await readSettled(store.linkEvents, start, 2);
      assert.deepEqual(
        events.map((event) => event.link.id),
        [late.id, early.id],
      );
      const last = events.at(-1)?.position ?? '';
      assert.deepEqual(await store.linkEvents.after(last, 10), []);
    });

    test("a cursor past the server's transaction ids (a failover, a restore) starts over", async (t) => {
      const store = await openSchemaStore(t);
      const links = [makeLink(), makeLink()];
      for (const link of links) await store.links.insertLink(link);
      const future = 'pg:99999999999999:x:99999999999999:x:-';
      const scan = await store.codeScan.scanCodes(future, 100);
      assert.deepEqual([...scan.codes].sort(), links.map((link) => link.code).sort());
      const later = makeLink();
      await store.links.insertLink(later);
      // The next pass starts at the snapshot's xmin: a transaction of another test still
      // open on the shared server holds it below the first two links, which then come
      // again (the port allows a code twice). The new link must come; nothing else may.
      const next = (await store.codeScan.scanCodes(scan.cursor, 100)).codes;
      assert.ok(next.includes(later.code), 'the link inserted after the restart is found');
      const known = new Set([...links, later].map((link) => link.code));
      assert.deepEqual(
        next.filter((code) => !known.has(code)),
        [],
      );
    });

    test('a statement past the redirect read timeout is store-unavailable, not "absent"', async (t) => {
      const schema = uniqueSchema();
      // The default timeout: the held lock outlasts any, and the read after the lock is gone
      // must not fail on a busy machine merely for being slow.
      const store = await PgStore.open(options(schema));
      t.after(async () => {
        await store.close();
        await dropSchema(schema);
      });
      const link = makeLink();
      await store.links.insertLink(link);
      // Hold the row's lock? Reads never wait on locks; hold the table's instead.
      const locker = new pg.Client({ connectionString: POSTGRES_URL });
      await locker.connect();
      locker.on('error', () => undefined);
      t.after(() => locker.end());
      await locker.query(`SET search_path = ${schema}`);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE links IN ACCESS EXCLUSIVE MODE');
      await assert.rejects(store.redirects.findRedirectByCode('', link.code), {
        name: 'HopError',
        kind: 'store-unavailable',
      });
      await locker.query('ROLLBACK');
      assert.equal(
        (await store.redirects.findRedirectByCode('', link.code))?.location,
        link.destination,
      );
    });

    test('an unreachable server: open rejects; ping of a closed store rejects', async (t) => {
      await assert.rejects(
        PgStore.open(
          options(uniqueSchema(), {
            url: 'postgres://postgres@127.0.0.1:1/test',
            connectTimeoutMs: 500,
          }),
        ),
      );
      const store = await openSchemaStore(t);
      await store.close();
      await assert.rejects(store.ping());
    });
  });
});

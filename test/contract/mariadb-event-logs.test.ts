import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { createConnection, type Connection, type Pool } from 'mysql2/promise';
import { MariaDbClickEventLog } from '../../src/adapters/mariadb/mariadb-click-event-log.js';
import { MariaDbLinkEventLog } from '../../src/adapters/mariadb/mariadb-link-event-log.js';
import { openMariaDbPool } from '../../src/adapters/mariadb/mariadb-pool.js';
import { MariaDbStore } from '../../src/adapters/mariadb/mariadb-store.js';
import { previewColumnOf, smartColumnOf } from '../../src/adapters/sql/smart-column.js';
import { LINK_COLUMNS } from '../../src/adapters/sql/link-sql.js';
import type { Link } from '../../src/domain/link.js';
import type { NewDelivery } from '../../src/ports/webhook-store.js';
import { mariadbStoreOptions } from '../support/fresh-stores.js';
import {
  dropDatabase,
  mariadbUrlOf,
  uniqueDatabase,
  whenMariadb,
} from '../support/require-mariadb.js';
import { readSettled } from '../support/settled-events.js';
import { makeWebhook } from '../support/make-webhook.js';
import { BASE_MS, HOUR_MS, makeId, makeLink } from './store-factories.js';

/**
 * The ordering rule of MariaDB's event logs (mariadb-event-positions.ts, ADR 0140), with
 * links and clicks written by plain SQL on connections of the test's own, as any writer
 * (and the triggers of migration 0005) would: a reader stops at a gap in the sequence until
 * the transaction that holds it commits, or until the row after it has settled.
 */

/** A test's database with hop's schema (its store applied the migrations), dropped after. */
async function openDatabase(t: TestContext): Promise<{ store: MariaDbStore; url: string }> {
  const database = uniqueDatabase();
  const store = await MariaDbStore.open(mariadbStoreOptions(database));
  t.after(async () => {
    await store.close();
    await dropDatabase(database);
  });
  return { store, url: mariadbUrlOf(database) };
}

/** A connection of the test's own: a writer outside hop's pools. */
async function writer(t: TestContext, url: string): Promise<Connection> {
  const connection = await createConnection({ uri: url });
  // The database's drop ends a session a failed test left open: not an error of its own.
  connection.on('error', () => undefined);
  t.after(() => connection.end().catch(() => undefined));
  return connection;
}

/** A pool as hop's, for logs built here with a settle bound of the test's choosing. */
function poolOf(t: TestContext, url: string): Pool {
  const pool = openMariaDbPool({
    url,
    maxConnections: 2,
    statementTimeoutMs: 5000,
    connectTimeoutMs: 2000,
    onIdleError: () => undefined,
  });
  t.after(() => pool.end());
  return pool;
}

async function insertLinkRow(connection: Connection, link: Link): Promise<void> {
  await connection.query(`INSERT INTO links (${LINK_COLUMNS}) VALUES (?)`, [
    [
      link.id,
      link.code,
      link.owner,
      link.destination,
      link.statusCode,
      link.state,
      link.custom,
      link.title,
      JSON.stringify(link.tags),
      link.createdAt,
      link.updatedAt,
      link.expiresAt,
      link.deletedAt,
      link.version,
      smartColumnOf(link.smart),
      link.domain,
      previewColumnOf(link.preview),
      link.crawlable,
    ],
  ]);
}

function makeDelivery(webhookId: string, createdAt: number): NewDelivery {
  const id = makeId();
  return {
    id,
    webhookId,
    messageId: `msg_${id}`,
    eventType: 'link.created',
    body: '{}',
    createdAt,
    giveUpAt: createdAt + HOUR_MS,
  };
}

async function insertClickEvent(connection: Connection, linkId: string): Promise<void> {
  await connection.query(
    `INSERT INTO click_events (link_id, \`second\`, clicks, bot_clicks, dimensions, recorded_at)
     VALUES (?, ?, 1, 0, '{}', ?)`,
    [linkId, BASE_MS, BASE_MS],
  );
}

await whenMariadb('MariaDB event logs (needs MariaDB)', () => {
  describe('MariaDB event logs: commit order by seq, gaps waited for', () => {
    test('a link event committed after a later one is read after it, never skipped', async (t) => {
      const { store, url } = await openDatabase(t);
      const start = await store.linkEvents.latest();
      // A transaction that takes its seq first and commits last.
      const slow = await writer(t, url);
      await slow.query('START TRANSACTION');
      const late = makeLink();
      await insertLinkRow(slow, late);
      const early = makeLink();
      await insertLinkRow(await writer(t, url), early);
      // The early commit waits behind the open transaction's gap: nothing can be skipped,
      // and latest stops before it too.
      assert.deepEqual(await store.linkEvents.after(start, 10), []);
      assert.equal(await store.linkEvents.latest(), start);
      await slow.query('COMMIT');
      const events = await readSettled(store.linkEvents, start, 2);
      assert.deepEqual(
        events.map((event) => event.link.id),
        [late.id, early.id],
      );
      const last = events.at(-1)?.position ?? '';
      assert.equal(await store.linkEvents.latest(), last);
      assert.deepEqual(await store.linkEvents.after(last, 10), []);
    });

    test('the triggers write the row as the change left it; only a new version is an event', async (t) => {
      const { store, url } = await openDatabase(t);
      const connection = await writer(t, url);
      const link = makeLink({
        code: 'Every_Field-1',
        statusCode: 308,
        custom: true,
        title: 'Ünïcödé "quoted" 🚀',
        tags: ['zeta', 'alpha', 'a"b\\c'],
        createdAt: BASE_MS - HOUR_MS,
        expiresAt: BASE_MS + HOUR_MS,
        smart: {
          rules: [],
          variants: [],
          passwordHash: null,
          maxClicks: 5,
          fallbackUrl: 'https://example.test/gone',
          forwardQuery: true,
        },
        domain: 'go.example.test',
        preview: { title: 'Card', description: null, image: 'https://example.test/i.png' },
        crawlable: true,
      });
      await insertLinkRow(connection, link);
      // The same version: no event (a write that is not a change, such as a backfill).
      await connection.query('UPDATE links SET title = ? WHERE id = ?', ['Quiet', link.id]);
      const edited: Link = { ...link, title: 'Second', version: 2, updatedAt: BASE_MS + 1 };
      await connection.query(
        'UPDATE links SET title = ?, version = 2, updated_at = ? WHERE id = ?',
        [edited.title, edited.updatedAt, link.id],
      );
      const deleted: Link = {
        ...edited,
        state: 'deleted',
        deletedAt: BASE_MS + 2,
        updatedAt: BASE_MS + 2,
        version: 3,
      };
      await connection.query(
        `UPDATE links SET state = 'deleted', deleted_at = ?, updated_at = ?, version = 3
         WHERE id = ?`,
        [deleted.deletedAt, deleted.updatedAt, link.id],
      );
      // A change to a deleted link (a tombstone's edit) is an update, not a second delete.
      await connection.query('UPDATE links SET version = 4, updated_at = ? WHERE id = ?', [
        BASE_MS + 3,
        link.id,
      ]);
      const events = await store.linkEvents.after('', 10);
      assert.deepEqual(
        events.map((event) => [event.type, event.link.version, event.occurredAt]),
        [
          ['link.created', 1, link.updatedAt],
          ['link.updated', 2, BASE_MS + 1],
          ['link.deleted', 3, BASE_MS + 2],
          ['link.updated', 4, BASE_MS + 3],
        ],
      );
      assert.deepEqual(events[0]?.link, link);
      assert.deepEqual(events[1]?.link, edited);
      assert.deepEqual(events[2]?.link, deleted);
    });

    test('a gap that never fills (a rollback) is passed once the row after it has settled', async (t) => {
      const { url } = await openDatabase(t);
      const settleMs = 1500;
      const log = new MariaDbLinkEventLog(poolOf(t, url), settleMs);
      const slow = await writer(t, url);
      await slow.query('START TRANSACTION');
      await insertLinkRow(slow, makeLink());
      const kept = makeLink();
      const writtenAt = Date.now();
      await insertLinkRow(await writer(t, url), kept);
      await slow.query('ROLLBACK');
      const first = (await log.after('', 10)).map((event) => event.link.id);
      if (Date.now() - writtenAt < settleMs) assert.deepEqual(first, [], 'read before it settled');
      const events = await readSettled(log, '', 1);
      assert.ok(Date.now() - writtenAt >= settleMs - 50, 'read only once settled');
      assert.deepEqual(
        events.map((event) => event.link.id),
        [kept.id],
      );
    });

    test("a Galera node's numbers (an increment above 1) are read once settled", async (t) => {
      const { url } = await openDatabase(t);
      const settleMs = 1000;
      const log = new MariaDbLinkEventLog(poolOf(t, url), settleMs);
      const node = await writer(t, url);
      // As wsrep_auto_increment_control sets it on a node of a three-node cluster.
      await node.query('SET SESSION auto_increment_increment = 3, auto_increment_offset = 2');
      const links = [makeLink(), makeLink()];
      for (const link of links) await insertLinkRow(node, link);
      const events = await readSettled(log, '', 2);
      assert.deepEqual(
        events.map((event) => event.link.id),
        links.map((link) => link.id),
      );
      assert.deepEqual(
        events.map((event) => event.position),
        ['2', '5'],
      );
    });

    test("retention's deleted numbers hold no reader back", async (t) => {
      const { store, url } = await openDatabase(t);
      const connection = await writer(t, url);
      const at = (ms: number) => makeLink({ createdAt: ms, updatedAt: ms });
      const old = [at(BASE_MS - 2 * HOUR_MS), at(BASE_MS - HOUR_MS)];
      const recent = at(BASE_MS);
      for (const link of [...old, recent]) await insertLinkRow(connection, link);
      // The oldest by time, not by seq: the second is forgotten first.
      await connection.query('UPDATE links SET version = 2, updated_at = ? WHERE id = ?', [
        BASE_MS - 3 * HOUR_MS,
        old[1]?.id,
      ]);
      assert.equal(await store.linkEvents.forgetBefore(BASE_MS - 2 * HOUR_MS, 1), 1);
      assert.equal(await store.linkEvents.forgetBefore(BASE_MS, 10), 2);
      // The default settle bound (6 s): read at once, no gap waited out.
      const events = await store.linkEvents.after('', 10);
      assert.deepEqual(
        events.map((event) => [event.type, event.link.id]),
        [['link.created', recent.id]],
      );
      assert.deepEqual(await store.linkEvents.after(await store.linkEvents.latest(), 10), []);
    });

    test('a click event committed after a later one is read after it, never skipped', async (t) => {
      const { url } = await openDatabase(t);
      const log = new MariaDbClickEventLog(poolOf(t, url));
      const slow = await writer(t, url);
      await slow.query('START TRANSACTION');
      await insertClickEvent(slow, 'link-late');
      await insertClickEvent(await writer(t, url), 'link-early');
      assert.deepEqual(await log.after('', 10), []);
      assert.equal(await log.latest(), '');
      await slow.query('COMMIT');
      const events = await readSettled(log, '', 2);
      assert.deepEqual(
        events.map((event) => event.linkId),
        ['link-late', 'link-early'],
      );
      assert.equal(await log.latest(), events.at(-1)?.position);
      assert.equal(await log.forgetBefore(BASE_MS + 1, 1), 1);
      assert.deepEqual(
        (await log.after('', 10)).map((event) => event.linkId),
        ['link-early'],
      );
    });
  });

  describe('MariaDB webhooks: instances taking turns', () => {
    test("a claim skips a delivery another instance holds, not its webhook's others", async (t) => {
      const { store, url } = await openDatabase(t);
      const webhook = makeWebhook({ owner: 'alice' });
      const paused = makeWebhook({ owner: 'alice', paused: true });
      await store.webhooks.insertWebhook(webhook);
      await store.webhooks.insertWebhook(paused);
      const deliveries = [1, 2, 3].map((n) => makeDelivery(webhook.id, BASE_MS + n));
      // Due first, but its webhook is paused: never claimed.
      const held = makeDelivery(paused.id, BASE_MS);
      await store.webhooks.fanOut('link', async () => ({
        deliveries: [held, ...deliveries],
        position: '1',
      }));
      const other = await writer(t, url);
      await other.query('START TRANSACTION');
      await other.query('SELECT id FROM webhook_deliveries WHERE id = ? FOR UPDATE', [
        deliveries[0]?.id,
      ]);
      const claimed = await store.webhooks.claimDueDeliveries(
        BASE_MS + HOUR_MS,
        BASE_MS + 2 * HOUR_MS,
        1,
      );
      assert.deepEqual(
        claimed.map((claim) => claim.delivery.id),
        [deliveries[1]?.id],
      );
      await other.query('COMMIT');
      const rest = await store.webhooks.claimDueDeliveries(
        BASE_MS + HOUR_MS,
        BASE_MS + 2 * HOUR_MS,
        10,
      );
      assert.deepEqual(
        rest.map((claim) => claim.delivery.id),
        [deliveries[0]?.id, deliveries[2]?.id],
      );
    });

    test("two first fan-out steps of a source take turns: the second plans from the first's position", async (t) => {
      const { store } = await openDatabase(t);
      const webhook = makeWebhook({ owner: 'alice' });
      await store.webhooks.insertWebhook(webhook);
      const seen: string[] = [];
      const step = () =>
        store.webhooks.fanOut('link', async (position) => {
          seen.push(position);
          // Long enough for the other step to reach the position's row meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 200));
          const next = String(Number(position === '' ? '0' : position) + 1);
          return { deliveries: [makeDelivery(webhook.id, BASE_MS)], position: next };
        });
      assert.deepEqual(await Promise.all([step(), step()]), [1, 1]);
      assert.deepEqual(seen, ['', '1']);
      assert.equal(await store.webhooks.fanOutPosition('link'), '2');
    });
  });
});

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { createConnection, type Connection } from 'mysql2/promise';
import { MariaDbStore } from '../../src/adapters/mariadb/mariadb-store.js';
import type { LinkCodeScan } from '../../src/ports/link-code-scan.js';
import { mariadbStoreOptions } from '../support/fresh-stores.js';
import {
  dropDatabase,
  mariadbUrlOf,
  uniqueDatabase,
  whenMariadb,
} from '../support/require-mariadb.js';
import { makeCode, makeId } from './store-factories.js';

/**
 * A store on a fresh database, and `connect` for connections of the test's own to the same
 * database (plain SQL beside the store), all ended after the test.
 */
async function openStoreAndConnect(
  t: TestContext,
): Promise<{ store: MariaDbStore; connect: () => Promise<Connection> }> {
  const database = uniqueDatabase();
  const store = await MariaDbStore.open(mariadbStoreOptions(database));
  const connections: Connection[] = [];
  t.after(async () => {
    await Promise.all(connections.map((connection) => connection.end().catch(() => undefined)));
    await store.close();
    await dropDatabase(database);
  });
  const connect = async () => {
    const connection = await createConnection({ uri: mariadbUrlOf(database) });
    // dropDatabase ends sessions a failed test left: not an error of this connection's own.
    connection.on('error', () => undefined);
    connections.push(connection);
    return connection;
  };
  return { store, connect };
}

interface RowOptions {
  readonly domain?: string;
  /** scan_seq, instead of the next AUTO_INCREMENT value. */
  readonly scanSeq?: number;
  /** inserted_at (epoch ms), instead of the server's clock now. */
  readonly insertedAt?: number;
}

/**
 * Inserts a link row with plain SQL (the scan reads rows, whoever wrote them) and returns
 * its code as the scan names it.
 */
async function insertRow(sql: Connection, options: RowOptions = {}): Promise<string> {
  const code = makeCode();
  const domain = options.domain ?? '';
  const columns = ['id', 'code', 'domain', 'owner', 'destination', 'status_code', 'state'];
  const values: unknown[] = [
    makeId(),
    code,
    domain,
    'owner',
    'https://example.test/',
    302,
    'active',
  ];
  columns.push('custom', 'created_at', 'updated_at', 'version');
  values.push(false, 0, 0, 1);
  if (options.scanSeq !== undefined) {
    columns.push('scan_seq');
    values.push(options.scanSeq);
  }
  if (options.insertedAt !== undefined) {
    columns.push('inserted_at');
    values.push(options.insertedAt);
  }
  await sql.query(`INSERT INTO links (${columns.join(', ')}) VALUES (?)`, [values]);
  return domain === '' ? code : `${domain}/${code}`;
}

/** One pass: pages of `limit` from `cursor` until one comes back short. */
async function scanPass(scan: LinkCodeScan, cursor: string | null, limit: number) {
  const codes: string[] = [];
  for (;;) {
    const page = await scan.scanCodes(cursor, limit);
    assert.ok(page.codes.length <= limit);
    codes.push(...page.codes);
    cursor = page.cursor;
    if (page.codes.length < limit) return { codes, cursor };
  }
}

await whenMariadb('MariaDbCodeScan (needs MariaDB)', () => {
  describe('MariaDbCodeScan: scan_seq gaps (ADR 0140)', () => {
    test('a link committed by a transaction that began before the scan is still found', async (t) => {
      const { store, connect } = await openStoreAndConnect(t);
      const [slow, sql] = [await connect(), await connect()];
      // Takes its seq first and commits last: its row appears behind a row already read.
      await slow.query('START TRANSACTION');
      const late = await insertRow(slow);
      const early = await insertRow(sql);

      const first = await scanPass(store.codeScan, null, 100);
      assert.deepEqual(first.codes, [early]);
      await slow.query('COMMIT');

      const second = await scanPass(store.codeScan, first.cursor, 100);
      assert.ok(second.codes.includes(late), 'the late commit is found by the next pass');
      // Nothing missing below: the pass after that has nothing to read again.
      assert.deepEqual((await scanPass(store.codeScan, second.cursor, 100)).codes, []);
    });

    test("a rolled-back insert's seq holds passes back until the row after it is old", async (t) => {
      const { store, connect } = await openStoreAndConnect(t);
      const sql = await connect();
      const before = await insertRow(sql);
      await sql.query('START TRANSACTION');
      await insertRow(sql);
      await sql.query('ROLLBACK');
      const after = await insertRow(sql);

      // Pages of one: the gap is found between pages, not only within one.
      const first = await scanPass(store.codeScan, null, 1);
      assert.deepEqual(first.codes, [before, after]);
      // The missing seq may still commit: the next pass reads again from below it.
      const again = await scanPass(store.codeScan, first.cursor, 1);
      assert.deepEqual(again.codes, [after]);

      // Once the row after the gap was inserted longer ago than any transaction stays open,
      // the gap is taken as rolled back: passes no longer read again what they have read.
      await sql.query('UPDATE links SET inserted_at = 0 WHERE code = ?', [after]);
      const aged = await scanPass(store.codeScan, again.cursor, 1);
      assert.deepEqual(aged.codes, [after]);
      const settled = await scanPass(store.codeScan, aged.cursor, 1);
      assert.deepEqual(settled.codes, []);
      const later = await insertRow(sql);
      assert.deepEqual((await scanPass(store.codeScan, settled.cursor, 1)).codes, [later]);
    });

    test('old gaps hold nothing back: a first load is read once, then only what is new', async (t) => {
      const { store, connect } = await openStoreAndConnect(t);
      const sql = await connect();
      // Seqs of rows reclaimed, rolled back or (on Galera) other nodes' never used, long ago.
      const old = [
        await insertRow(sql, { scanSeq: 3, insertedAt: 0 }),
        await insertRow(sql, { scanSeq: 7, insertedAt: 0, domain: 'go.acme.test' }),
        await insertRow(sql, { scanSeq: 20, insertedAt: 0 }),
      ];
      const first = await scanPass(store.codeScan, null, 2);
      assert.deepEqual(first.codes, old);
      assert.ok(old[1]?.startsWith('go.acme.test/'), 'a code on a domain is host/code');
      assert.deepEqual((await scanPass(store.codeScan, first.cursor, 2)).codes, []);
      const fresh = await insertRow(sql);
      assert.deepEqual((await scanPass(store.codeScan, first.cursor, 2)).codes, [fresh]);
    });

    test('a cursor that is not one of this store is refused', async (t) => {
      const { store } = await openStoreAndConnect(t);
      for (const cursor of ['', 'pg:1:a:1:a:-', 'my:1', 'my:2:3', 'my:x:1']) {
        await assert.rejects(store.codeScan.scanCodes(cursor, 10), RangeError, cursor);
      }
    });
  });
});

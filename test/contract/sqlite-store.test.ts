import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { loadMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { pageCacheMebibytesFor, SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { domainStoreContract } from './domain-store-contract.js';
import { runRedirectAllowanceContract } from './redirect-allowance-contract.js';
import { runStoreContract } from './store-contract.js';
import { BASE_MS, makeClaim, makeKey, makeLink, makeOwner } from './store-factories.js';
import { openFreshSqliteStore } from '../support/fresh-stores.js';

/** A fresh temp dir for one test, removed after it. */
function makeTempDir(t?: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'hop-contract-'));
  t?.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Opens `file` and closes it after the test (closing twice is harmless). */
function openFile(t: TestContext, file: string): SqliteStore {
  const store = SqliteStore.open({ file });
  t.after(() => store.close());
  return store;
}

const openFreshStore = openFreshSqliteStore;

runStoreContract('SqliteStore', openFreshStore);

describe('Store contract: SqliteStore domains', () => {
  domainStoreContract(openFreshStore);
});

// Two connections to one file: the server and a CLI beside it.
runRedirectAllowanceContract('SqliteRedirectAllowance', async (t) => {
  const file = join(makeTempDir(t), 'hop.db');
  return [openFile(t, file), openFile(t, file)];
});

describe('SqliteStore specifics', () => {
  const allVersions = loadMigrations().map((migration) => migration.version);

  test('the file is in WAL mode', async (t) => {
    const file = join(makeTempDir(t), 'hop.db');
    openFile(t, file);

    const raw = new Database(file, { readonly: true, fileMustExist: true });
    t.after(() => raw.close());
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
  });

  test('the page cache is 64 MiB up to 2.5M links, 8 per 10M beyond (at least 8), or as configured (ADRs 0149, 0151)', async (t) => {
    assert.equal(pageCacheMebibytesFor(0), 64);
    assert.equal(pageCacheMebibytesFor(2_500_000), 64);
    assert.equal(pageCacheMebibytesFor(2_500_001), 8);
    assert.equal(pageCacheMebibytesFor(10_000_000), 8);
    assert.equal(pageCacheMebibytesFor(10_000_001), 9);
    assert.equal(pageCacheMebibytesFor(20_000_000), 16);
    const file = join(makeTempDir(t), 'hop.db');
    const small = SqliteStore.open({ file });
    await small.links.insertLink(makeLink());
    assert.equal(small.pageCacheMebibytes(), 64, 'a new store is small');
    await small.close();
    // A store whose rows reached past 2.5M links: its last rowid says so, read at open.
    const raw = new Database(file);
    raw.prepare('UPDATE links SET rowid = 2500001').run();
    raw.close();
    const large = SqliteStore.open({ file });
    assert.equal(large.pageCacheMebibytes(), 8);
    await large.close();
    const configured = SqliteStore.open({ file, pageCacheMebibytes: 12 });
    t.after(() => configured.close());
    assert.equal(configured.pageCacheMebibytes(), 12, 'HOP_SQLITE_CACHE_MB wins');
  });

  test('opening creates the missing folders of the file', async (t) => {
    const file = join(makeTempDir(t), 'nested', 'deeper', 'hop.db');
    const store = openFile(t, file);
    await store.ping();
    assert.ok(existsSync(file));
  });

  test('a fresh file gets every migration; reopening it applies none', async (t) => {
    const file = join(makeTempDir(t), 'hop.db');
    const first = openFile(t, file);
    assert.deepEqual(first.migrationsAppliedAtOpen, allVersions);
    await first.close();

    const again = openFile(t, file);
    assert.deepEqual(again.migrationsAppliedAtOpen, []);
    assert.deepEqual(await again.migrate(), []);
  });

  test('two stores on one file apply the migrations once (CLI next to a server)', async (t) => {
    const file = join(makeTempDir(t), 'hop.db');
    const server = openFile(t, file);
    const cli = openFile(t, file);
    assert.deepEqual(server.migrationsAppliedAtOpen, allVersions);
    assert.deepEqual(cli.migrationsAppliedAtOpen, []);

    const link = makeLink();
    assert.equal((await cli.links.insertLink(link)).kind, 'inserted');
    assert.deepEqual(await server.links.findLinkByCode('', link.code), link);
    assert.deepEqual(await server.links.insertLink(makeLink({ code: link.code })), {
      kind: 'code-taken',
    });
  });

  test("the change feed: another process's changes in commit order, from where one starts", async (t) => {
    const file = join(makeTempDir(t), 'hop.db');
    const server = openFile(t, file);
    const cli = openFile(t, file);
    const early = makeLink({ expiresAt: null });
    assert.equal((await cli.links.insertLink(early)).kind, 'inserted');
    assert.equal(await cli.links.replaceLink({ ...early, state: 'disabled', version: 2 }, 1), true);
    // Following from now skips what came before; inserts are no changes.
    const start = await server.linkChanges.latest();
    assert.deepEqual(await server.linkChanges.changesAfter(start, 10), {
      changes: [],
      cursor: start,
    });

    const link = makeLink({ expiresAt: BASE_MS + 1000 });
    assert.equal((await cli.links.insertLink(link)).kind, 'inserted');
    const disabled = { ...link, state: 'disabled' as const, version: 2 };
    assert.equal(await cli.links.replaceLink(disabled, 1), true);
    assert.equal(
      await cli.links.replaceLink({ ...disabled, state: 'active', version: 3 }, 2),
      true,
    );
    // A write that loses its version check changes nothing, and is no change.
    assert.equal(await cli.links.replaceLink({ ...disabled, version: 9 }, 1), false);
    assert.equal((await cli.sweep.markExpired(BASE_MS + 1000, 10)).length, 1);

    const first = await server.linkChanges.changesAfter(start, 2);
    assert.deepEqual(first.changes, [
      { code: link.code, version: 2 },
      { code: link.code, version: 3 },
    ]);
    const rest = await server.linkChanges.changesAfter(first.cursor, 10);
    assert.deepEqual(rest.changes, [{ code: link.code, version: 4 }]);
    assert.deepEqual((await server.linkChanges.changesAfter(rest.cursor, 10)).changes, []);

    // Forgetting every change keeps the position: the next change comes after the cursor.
    assert.equal(await server.linkChanges.forgetBefore(Number.MAX_SAFE_INTEGER, 3), 3);
    assert.equal(await server.linkChanges.forgetBefore(Number.MAX_SAFE_INTEGER, 3), 1);
    assert.equal(await server.linkChanges.latest(), rest.cursor);
    assert.equal(
      await cli.links.replaceLink({ ...early, state: 'active', version: 3, updatedAt: 5 }, 2),
      true,
    );
    assert.deepEqual((await server.linkChanges.changesAfter(rest.cursor, 10)).changes, [
      { code: early.code, version: 3 },
    ]);
    // Only changes older than the bound are forgotten.
    assert.equal(await server.linkChanges.forgetBefore(5, 10), 0);
    assert.equal(await server.linkChanges.forgetBefore(6, 10), 1);
  });

  test('links, claims and keys survive close and reopen', async (t) => {
    const file = join(makeTempDir(t), 'hop.db');
    const owner = makeOwner();
    const claim = makeClaim({ owner });
    const link = makeLink({ owner, title: 'kept', tags: ['a', 'b'], custom: true });
    const key = makeKey({ owner, admin: true });

    const before = openFile(t, file);
    assert.equal((await before.links.insertLink(link, claim)).kind, 'inserted');
    assert.equal(await before.keys.insertKey(key), true);
    await before.close();

    const after = openFile(t, file);
    assert.deepEqual(await after.links.findLinkById(link.id), link);
    assert.deepEqual(await after.links.findLinkByCode('', link.code), link);
    assert.deepEqual(await after.keys.findActiveKeyByHash(key.keyHash), key);
    assert.deepEqual(await after.keys.listKeys(), [key]);
    const replay = await after.links.insertLink(makeLink({ owner }), claim);
    assert.equal(replay.kind, 'replayed');
    assert.deepEqual(replay.kind === 'replayed' ? replay.record.link : null, link);
  });

  test('ping rejects once the store is closed', async (t) => {
    const store = openFile(t, join(makeTempDir(t), 'hop.db'));
    await store.close();
    await assert.rejects(store.ping());
  });
});

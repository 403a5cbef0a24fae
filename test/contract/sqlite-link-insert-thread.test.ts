import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startLinkInsertThread } from '../../src/adapters/sqlite/link-insert-thread.js';
import { toRow } from '../../src/adapters/sqlite/sqlite-link-rows.js';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { HopError } from '../../src/domain/errors.js';
import { idempotencyContract } from './idempotency-contract.js';
import { linkRepositoryContract } from './link-repository-contract.js';
import { makeLink } from './store-factories.js';

/** A serving store's creates, written by its link insert thread (ADR 0144). */
async function openThreadedStore(lost: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'hop-insert-thread-'));
  const store = SqliteStore.open({
    file: join(dir, 'hop.db'),
    insertThread: { onLost: (reason) => lost.push(reason) },
  });
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('SqliteStore with its link insert thread: the link repository contract', () => {
  linkRepositoryContract(openThreadedStore);
  idempotencyContract(openThreadedStore);
});

describe('the link insert thread', () => {
  test('a create it wrote is read at once on the store’s own connection, with its event', async (t) => {
    const lost: string[] = [];
    const { store, cleanup } = await openThreadedStore(lost);
    t.after(cleanup);
    const link = makeLink();
    const result = await store.links.insertLink(link);
    assert.equal(result.kind, 'inserted');
    assert.equal(result.kind === 'inserted' ? result.link : null, link, 'the caller’s own link');
    assert.deepEqual(await store.links.findLinkByCode(link.domain, link.code), link);
    const events = await store.linkEvents.after('', 10);
    assert.deepEqual(
      events.map((event) => [event.type, event.link.id]),
      [['link.created', link.id]],
    );
    assert.deepEqual(lost, []);
  });

  test('a taken code is code-taken, and the thread goes on', async (t) => {
    const { store, cleanup } = await openThreadedStore();
    t.after(cleanup);
    const first = makeLink();
    await store.links.insertLink(first);
    const clash = makeLink({ code: first.code });
    assert.deepEqual(await store.links.insertLink(clash), { kind: 'code-taken' });
    assert.equal((await store.links.insertLink(makeLink())).kind, 'inserted');
  });

  test('a row the database refuses fails that create as store-unavailable, not the next', async (t) => {
    const { store, dir, cleanup } = await openThreadedStore();
    t.after(cleanup);
    const thread = startLinkInsertThread(join(dir, 'hop.db'), () => undefined);
    t.after(() => thread.stop());
    // status_code has a CHECK constraint: 399 is no redirect status.
    const refused = { ...toRow(makeLink()), status_code: 399 };
    await assert.rejects(thread.insert(refused, undefined), (error: unknown) => {
      assert.ok(error instanceof HopError);
      assert.equal(error.kind, 'store-unavailable');
      assert.equal(error.retryable, true);
      assert.match((error.cause as Error).message, /CHECK constraint/);
      return true;
    });
    const link = makeLink();
    assert.deepEqual(await thread.insert(toRow(link), undefined), { kind: 'inserted' });
    assert.deepEqual(await store.links.findLinkById(link.id), link);
  });

  test('a thread that ends unasked fails its creates as store-unavailable, says why, and the next create starts it again', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-insert-thread-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'hop.db');
    // A folder where the file should be: the thread cannot open it, and ends.
    mkdirSync(file);
    const lost: string[] = [];
    const thread = startLinkInsertThread(file, (reason) => lost.push(reason));
    t.after(() => thread.stop());
    await assert.rejects(thread.insert(toRow(makeLink()), undefined), (error: unknown) => {
      assert.ok(error instanceof HopError);
      assert.equal(error.kind, 'store-unavailable');
      return true;
    });
    assert.ok(
      lost.some((reason) => /exited with code 1/.test(reason)),
      JSON.stringify(lost),
    );

    rmSync(file, { recursive: true });
    const store = SqliteStore.open({ file });
    t.after(() => store.close());
    const link = makeLink();
    assert.deepEqual(await thread.insert(toRow(link), undefined), { kind: 'inserted' });
    assert.deepEqual(await store.links.findLinkById(link.id), link);
  });

  test('closing the store lets the creates already sent finish first', async (t) => {
    const { store, dir, cleanup } = await openThreadedStore();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const links = Array.from({ length: 50 }, () => makeLink());
    const writes = links.map((link) => store.links.insertLink(link));
    await store.close();
    assert.deepEqual(
      (await Promise.all(writes)).map((result) => result.kind),
      links.map(() => 'inserted'),
    );
    const reopened = SqliteStore.open({ file: join(dir, 'hop.db') });
    t.after(() => reopened.close());
    for (const link of links) assert.deepEqual(await reopened.links.findLinkById(link.id), link);
    await cleanup().catch(() => undefined);
  });
});

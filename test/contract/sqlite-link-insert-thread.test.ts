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

/** The thread's answer, which must be one: it is running. */
function running<T>(answer: Promise<T> | null): Promise<T> {
  assert.ok(answer !== null, 'the thread is running');
  return answer;
}

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
    await assert.rejects(running(thread.insert(refused, undefined)), (error: unknown) => {
      assert.ok(error instanceof HopError);
      assert.equal(error.kind, 'store-unavailable');
      assert.equal(error.retryable, true);
      const cause = error.cause as Error & { code?: string };
      assert.match(cause.message, /CHECK constraint/);
      assert.equal(cause.code, 'SQLITE_CONSTRAINT_CHECK', 'the driver’s code crosses the thread');
      return true;
    });
    const link = makeLink();
    assert.deepEqual(await running(thread.insert(toRow(link), undefined)), { kind: 'inserted' });
    assert.deepEqual(await store.links.findLinkById(link.id), link);
  });

  test('a row that cannot cross to the thread fails as store-unavailable, not the next', async (t) => {
    const { store, dir, cleanup } = await openThreadedStore();
    t.after(cleanup);
    const thread = startLinkInsertThread(join(dir, 'hop.db'), () => undefined);
    t.after(() => thread.stop());
    const uncloneable = { ...toRow(makeLink()), title: (() => 'a function') as unknown as string };
    await assert.rejects(running(thread.insert(uncloneable, undefined)), (error: unknown) => {
      assert.ok(error instanceof HopError);
      assert.equal(error.kind, 'store-unavailable');
      return true;
    });
    const link = makeLink();
    assert.deepEqual(await running(thread.insert(toRow(link), undefined)), { kind: 'inserted' });
    assert.deepEqual(await store.links.findLinkById(link.id), link);
  });

  test('a thread that ends unasked fails its creates as store-unavailable and says why; for a second the creates are the caller’s, then a new thread takes them', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-insert-thread-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'hop.db');
    // A folder where the file should be: the thread cannot open it, and ends.
    mkdirSync(file);
    const lost: string[] = [];
    const thread = startLinkInsertThread(file, (reason) => lost.push(reason));
    t.after(() => thread.stop());
    await assert.rejects(running(thread.insert(toRow(makeLink()), undefined)), (error: unknown) => {
      assert.ok(error instanceof HopError);
      assert.equal(error.kind, 'store-unavailable');
      return true;
    });
    assert.equal(lost.length, 1, JSON.stringify(lost));
    assert.match(lost[0] ?? '', /exited with code 1: .*(open|directory)/i);
    assert.equal(thread.insert(toRow(makeLink()), undefined), null, 'the caller’s to write');

    rmSync(file, { recursive: true });
    const store = SqliteStore.open({ file });
    t.after(() => store.close());
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const link = makeLink();
    assert.deepEqual(await running(thread.insert(toRow(link), undefined)), { kind: 'inserted' });
    assert.deepEqual(await store.links.findLinkById(link.id), link);
    assert.equal(lost.length, 1);
  });

  test('while its thread is down, the repository writes a create on its own connection', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-insert-thread-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = SqliteStore.open({ file: join(dir, 'hop.db') });
    t.after(() => store.close());
    let asked = 0;
    store.links.insertOn({
      insert: () => {
        asked++;
        return null;
      },
      stop: async () => undefined,
    });
    const link = makeLink();
    assert.deepEqual(await store.links.insertLink(link), { kind: 'inserted', link });
    assert.equal(asked, 1);
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

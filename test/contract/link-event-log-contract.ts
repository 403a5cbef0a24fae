import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import { isEventPosition, type LinkEventRecord } from '../../src/ports/event-log.js';
import { readSettled } from '../support/settled-events.js';
import { BASE_MS, HOUR_MS, makeLink, openFresh, type OpenStore } from './store-factories.js';

const summary = (events: readonly LinkEventRecord[]) =>
  events.map((event) => [event.type, event.link.id, event.link.version]);

/** LinkEventLog: the outbox of link events (issue 23, ADR 0127). */
export function linkEventLogContract(openStore: OpenStore): void {
  describe('linkEvents', () => {
    test('creates, changes and deletes are events in commit order, with the link as left', async (t) => {
      const store = await openFresh(t, openStore);
      const start = await store.linkEvents.latest();
      assert.ok(isEventPosition(start), start);
      const link = makeLink({ tags: ['a'], title: 'First' });
      assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      const edited: Link = { ...link, title: 'Second', version: 2, updatedAt: BASE_MS + 1 };
      assert.equal(await store.links.replaceLink(edited, 1), true);
      // A compare-and-set that loses writes nothing, and so no event.
      assert.equal(await store.links.replaceLink({ ...edited, version: 3 }, 1), false);
      const deleted: Link = {
        ...edited,
        state: 'deleted',
        deletedAt: BASE_MS + 2,
        updatedAt: BASE_MS + 2,
        version: 3,
      };
      assert.equal(await store.links.replaceLink(deleted, 2), true);
      // A code already taken inserts nothing.
      const taken = await store.links.insertLink(makeLink({ code: link.code }));
      assert.equal(taken.kind, 'code-taken');

      const events = await readSettled(store.linkEvents, start, 3);
      assert.deepEqual(summary(events), [
        ['link.created', link.id, 1],
        ['link.updated', link.id, 2],
        ['link.deleted', link.id, 3],
      ]);
      assert.deepEqual(events[0]?.link, link);
      assert.deepEqual(events[1]?.link, edited);
      assert.deepEqual(events[2]?.link, deleted);
      assert.deepEqual(
        events.map((event) => event.occurredAt),
        [link.createdAt, BASE_MS + 1, BASE_MS + 2],
      );
      for (const event of events) assert.ok(isEventPosition(event.position), event.position);
      assert.deepEqual(await store.linkEvents.after(events[2]?.position ?? '', 10), []);
    });

    test('imports are creates too; latest skips what came before', async (t) => {
      const store = await openFresh(t, openStore);
      const before = makeLink();
      await store.links.insertLink(before);
      const from = await store.linkEvents.latest();
      const imported = [makeLink(), makeLink()];
      assert.equal(await store.links.importLinks(imported), 2);
      const events = await readSettled(store.linkEvents, from, 2);
      assert.deepEqual(
        summary(events),
        imported.map((link) => ['link.created', link.id, 1]),
      );
    });

    test('forgetBefore deletes old events a batch at a time, oldest first', async (t) => {
      const store = await openFresh(t, openStore);
      const start = await store.linkEvents.latest();
      // A link.created occurs when the link is written (its updated_at; a create's
      // created_at too): an imported link may keep an older creation time (ADR 0136).
      const at = (ms: number) => makeLink({ createdAt: ms, updatedAt: ms });
      const old = [at(BASE_MS - 2 * HOUR_MS), at(BASE_MS - HOUR_MS)];
      const recent = at(BASE_MS);
      for (const link of [...old, recent]) await store.links.insertLink(link);
      assert.equal(await store.linkEvents.forgetBefore(BASE_MS, 1), 1);
      assert.equal(await store.linkEvents.forgetBefore(BASE_MS, 10), 1);
      assert.equal(await store.linkEvents.forgetBefore(BASE_MS, 10), 0);
      assert.deepEqual(summary(await readSettled(store.linkEvents, start, 1)), [
        ['link.created', recent.id, 1],
      ]);
    });
  });
}

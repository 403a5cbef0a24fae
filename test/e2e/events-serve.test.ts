import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { startHop, stopHop } from '../support/hop-process.js';
import { sendClicks } from '../support/click-load.js';
import { eventually } from '../support/eventually.js';
import { SseReader } from '../support/sse-reader.js';
import { tempDataDir } from '../support/temp-data.js';
import { threadNiceValues } from '../support/thread-nice.js';

const KEY = 'hop_events_e2e_admin_key_0123456789';
/**
 * Polls (10 ms apart) for what the nice-19 thread sends: on a machine busy with other tests
 * it can wait many seconds for the CPU (ADR 0132).
 */
const LOW_PRIORITY_POLLS = 6_000;

describe('hop serve with event streams open (ADR 0129)', () => {
  test('SIGTERM ends the streams and the process exits 0', { timeout: 120_000 }, async (t) => {
    const hop = await startHop({
      HOP_DATA_DIR: tempDataDir(t, 'hop-events-e2e-'),
      HOP_BOOTSTRAP_ADMIN_KEY: KEY,
      HOP_EVENT_POLL_INTERVAL: '20ms',
      // Not under test: a busy CI machine's event-loop lag would shed these calls (503).
      HOP_SHED_LAG: '1h',
    });
    t.after(() => hop.child.kill('SIGKILL'));
    const streams: SseReader[] = [];
    t.after(() => {
      for (const stream of streams) stream.close();
    });
    for (let i = 0; i < 3; i++) {
      const opened = await SseReader.open(`${hop.url}/v1/events`, {
        authorization: `Bearer ${KEY}`,
      });
      assert.ok(
        'reader' in opened,
        `${opened.status} ${'text' in opened ? opened.text : ''}\n${hop.output()}`,
      );
      streams.push(opened.reader);
    }
    const created = await fetch(`${hop.url}/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'https://example.com/live' }),
    });
    assert.equal(created.status, 201);
    for (const stream of streams) {
      await stream.waitFor((r) => r.events.length === 1, 'the create', LOW_PRIORITY_POLLS);
    }
    // Within HOP_SHUTDOWN_TIMEOUT, or the process exits 1 (src/main/stop-on-signals.ts).
    await stopHop(hop);
    for (const stream of streams) await stream.waitFor((r) => r.ended, 'the end');
  });

  test(
    'the streams are read, and rendered, by a thread at the lowest priority (ADR 0132): replayed, live, and bounded per key',
    { timeout: 120_000 },
    async (t) => {
      const hop = await startHop({
        HOP_DATA_DIR: tempDataDir(t, 'hop-events-thread-'),
        HOP_BOOTSTRAP_ADMIN_KEY: KEY,
        HOP_EVENT_POLL_INTERVAL: '20ms',
        // Not under test: a busy CI machine's event-loop lag would shed these calls (503).
        HOP_SHED_LAG: '1h',
        HOP_EVENT_STREAMS_PER_KEY: '2',
      });
      t.after(() => hop.child.kill('SIGKILL'));
      const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      // Linux keeps a nice value per thread: exactly one of hop's threads is at 19, once
      // that thread has started (it starts at the server's priority: ADR 0143).
      const pid = hop.child.pid;
      assert.ok(pid !== undefined);
      await eventually(
        async () => threadNiceValues(pid).includes(19),
        'the integrations thread at nice 19',
      );
      const nices = threadNiceValues(pid);
      assert.equal(
        nices.filter((nice) => nice === 19).length,
        1,
        `nice values: ${nices.join(',')}`,
      );
      assert.equal(nices.filter((nice) => nice === 0).length, nices.length - 1);

      const codes: string[] = [];
      for (let i = 0; i < 30; i++) {
        const created = await fetch(`${hop.url}/v1/links`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ destination: `https://example.com/replayed/${i}` }),
        });
        assert.equal(created.status, 201);
        codes.push(((await created.json()) as { code: string }).code);
      }
      const replay = await SseReader.open(`${hop.url}/v1/events`, {
        authorization: `Bearer ${KEY}`,
        'last-event-id': '~',
      });
      assert.ok('reader' in replay, hop.output());
      t.after(() => replay.reader.close());
      await replay.reader.waitFor(
        (r) => r.events.length === 30,
        'the replayed creates',
        LOW_PRIORITY_POLLS,
      );
      assert.deepEqual(
        replay.reader.events.map(
          (event) => (JSON.parse(event.data) as { data: { code: string } }).data.code,
        ),
        codes,
      );
      const live = await SseReader.open(`${hop.url}/v1/events`, { authorization: `Bearer ${KEY}` });
      assert.ok('reader' in live, hop.output());
      t.after(() => live.reader.close());
      // The key's third stream is refused by the thread's hub: a problem, as in-process.
      const third = await SseReader.open(`${hop.url}/v1/events`, {
        authorization: `Bearer ${KEY}`,
      });
      assert.equal(third.status, 429);
      assert.ok('json' in third);
      assert.match(third.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(String(third.json.detail), /HOP_EVENT_STREAMS_PER_KEY/);

      const edited = await fetch(`${hop.url}/v1/links/${codes[0]!}`, {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify({ destination: 'https://example.com/edited' }),
      });
      assert.equal(edited.status, 200);
      for (const reader of [replay.reader, live.reader]) {
        await reader.waitFor(
          (r) => r.events.some((e) => e.event === 'link.updated'),
          'the edit',
          LOW_PRIORITY_POLLS,
        );
      }
      // A closed stream gives its place back: the key may open another.
      live.reader.close();
      await eventually(async () => {
        const again = await SseReader.open(`${hop.url}/v1/events`, {
          authorization: `Bearer ${KEY}`,
        });
        if ('reader' in again) again.reader.close();
        return again.status === 200;
      }, "a stream in the closed one's place");
      await stopHop(hop);
    },
  );

  test(
    "with a stream open, a load's every click is in the visit log and in the stream's link.clicked: the fold spools them, the thread writes them out (ADR 0132)",
    { timeout: 180_000 },
    async (t) => {
      const dataDir = tempDataDir(t, 'hop-spool-e2e-');
      const hop = await startHop({
        HOP_DATA_DIR: dataDir,
        HOP_BOOTSTRAP_ADMIN_KEY: KEY,
        HOP_EVENT_POLL_INTERVAL: '20ms',
        // Not under test: a busy CI machine's event-loop lag would shed these calls (503).
        HOP_SHED_LAG: '1h',
      });
      t.after(() => hop.child.kill('SIGKILL'));
      const opened = await SseReader.open(`${hop.url}/v1/events`, {
        authorization: `Bearer ${KEY}`,
      });
      assert.ok('reader' in opened, hop.output());
      const stream = opened.reader;
      t.after(() => stream.close());
      const created = await fetch(`${hop.url}/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ destination: 'https://example.com/spooled' }),
      });
      assert.equal(created.status, 201);
      const link = (await created.json()) as { id: string; code: string };
      const CLICKS = 2_000;
      const load = await sendClicks(`${hop.url}/${link.code}`, CLICKS, 20);
      assert.equal(load.failed, 0);
      const streamed = () =>
        stream.events
          .filter((event) => event.event === 'link.clicked')
          .map((event) => JSON.parse(event.data) as ClickedJson)
          .filter((event) => event.data.link_id === link.id)
          .reduce((sum, event) => sum + event.data.clicks.count + event.data.clicks.bot_count, 0);
      // A fold comes within HOP's fold interval (15 s) of the last flush.
      await eventually(async () => streamed() >= CLICKS, 'every click streamed', 6_000);
      assert.equal(streamed(), CLICKS);
      let visits = 0;
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page = await fetch(`${hop.url}/v1/links/${link.id}/visits?limit=1000${query}`, {
          headers: { authorization: `Bearer ${KEY}` },
        });
        assert.equal(page.status, 200);
        const body = (await page.json()) as { visits: unknown[]; next_cursor: string | null };
        visits += body.visits.length;
        cursor = body.next_cursor;
      } while (cursor !== null);
      assert.equal(visits, CLICKS);
      // The backlog gauge: the aggregator thread reports the spool's rows (every second).
      await eventually(async () => {
        const metrics = await (await fetch(`${hop.url}/metrics`)).text();
        return /^hop_click_log_spooled_folds 0$/m.test(metrics);
      }, 'an empty spool on /metrics');
      const clicksDb = new Database(join(dataDir, 'clicks.db'), { readonly: true });
      try {
        assert.equal(clicksDb.prepare('SELECT count(*) FROM fold_log_spool').pluck().get(), 0);
      } finally {
        clicksDb.close();
      }
      await stopHop(hop);
    },
  );
});

interface ClickedJson {
  readonly data: {
    readonly link_id: string;
    readonly clicks: { readonly count: number; readonly bot_count: number };
  };
}

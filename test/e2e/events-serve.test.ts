import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startHop, stopHop } from '../support/hop-process.js';
import { SseReader } from '../support/sse-reader.js';
import { tempDataDir } from '../support/temp-data.js';

const KEY = 'hop_events_e2e_admin_key_0123456789';

describe('hop serve with event streams open (ADR 0129)', () => {
  test('SIGTERM ends the streams and the process exits 0', { timeout: 120_000 }, async (t) => {
    const hop = await startHop({
      HOP_DATA_DIR: tempDataDir(t, 'hop-events-e2e-'),
      HOP_BOOTSTRAP_ADMIN_KEY: KEY,
      HOP_EVENT_POLL_INTERVAL: '20ms',
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
      assert.ok('reader' in opened, hop.output());
      streams.push(opened.reader);
    }
    const created = await fetch(`${hop.url}/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'https://example.com/live' }),
    });
    assert.equal(created.status, 201);
    for (const stream of streams) {
      await stream.waitFor((r) => r.events.length === 1, 'the create');
    }
    // Within HOP_SHUTDOWN_TIMEOUT, or the process exits 1 (src/main/stop-on-signals.ts).
    await stopHop(hop);
    for (const stream of streams) await stream.waitFor((r) => r.ended, 'the end');
  });
});

import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { JetStreamClicks } from '../../src/adapters/nats/jetstream-clicks.js';
import { SqliteClickDatabase } from '../../src/adapters/sqlite/sqlite-click-database.js';
import { batchOf } from '../support/click-batches.js';
import { sendClicks } from '../support/click-load.js';
import { createLink, E2E_ADMIN_KEY, readCounts, readMetric } from '../support/click-counts.js';
import { eventually } from '../support/eventually.js';
import { tempDataDir } from '../support/temp-data.js';
import {
  runHop,
  startHop,
  startHopWorker,
  stopHop,
  type ServeProcess,
} from '../support/hop-process.js';
import { NATS_URL, requireNats, startOwnNats, uniqueStream } from '../support/require-nats.js';
import { volume } from '../support/volume.js';

/** Several flushes' worth at 100 in flight; 20,000 under `npm run test:scale`. */
const CLICKS = volume(4_000, 20_000);

function scaledOutEnv(dataDir: string, stream: string, natsUrl = NATS_URL): Record<string, string> {
  return {
    HOP_DATA_DIR: dataDir,
    HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
    HOP_NATS_URL: natsUrl,
    HOP_NATS_STREAM: stream,
    HOP_CLICK_FLUSH_INTERVAL: '200ms',
    HOP_NATS_ACK_WAIT: '2s',
  };
}

function killAfter(t: TestContext, process: ServeProcess): ServeProcess {
  t.after(() => process.child.kill('SIGKILL'));
  return process;
}

describe('click counting, scaled out (hop serve → JetStream → hop worker)', () => {
  test('hop worker without HOP_NATS_URL refuses to start and says why', async () => {
    const run = await runHop(['worker'], { HOP_DATA_DIR: join(tmpdir(), 'hop-never-created') });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /HOP_NATS_URL is unset/);
  });

  test('hop worker on a port already taken refuses to start and names the variables', async (t) => {
    if (!(await requireNats(t))) return;
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    t.after(() => taken.close());
    const { port } = taken.address() as AddressInfo;
    const env = {
      ...scaledOutEnv(tempDataDir(t, 'hop-nats-e2e-'), uniqueStream(t)),
      HOP_HOST: '127.0.0.1',
      HOP_WORKER_PORT: String(port),
    };
    const run = await runHop(['worker'], env);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /^hop: HOP_HOST="127\.0\.0\.1" HOP_WORKER_PORT="\d+" cannot be listened on: .*EADDRINUSE.*\n$/,
    );
  });

  test(`${CLICKS.toLocaleString('en')} concurrent clicks on one link are counted exactly`, async (t) => {
    if (!(await requireNats(t))) return;
    const dataDir = tempDataDir(t, 'hop-nats-e2e-');
    const env = scaledOutEnv(dataDir, uniqueStream(t));
    const hop = killAfter(t, await startHop(env));
    const worker = killAfter(t, await startHopWorker(env));
    const link = await createLink(hop.url);
    const result = await sendClicks(`${hop.url}/${link.code}`, CLICKS, 100);
    assert.deepEqual(result, { redirected: CLICKS, failed: 0 });
    await eventually(
      async () => readCounts(dataDir, link.id).clicks >= CLICKS,
      'all clicks folded by the worker',
      3000,
    );
    assert.equal(await readMetric(worker.url, 'hop_click_events_folded_total'), CLICKS);
    assert.equal(await readMetric(hop.url, 'hop_click_events_flushed_total'), CLICKS);
    assert.equal(
      await readMetric(hop.url, 'hop_click_events_folded_total'),
      undefined,
      'scaled out, hop serve folds nothing',
    );
    assert.equal((await fetch(`${worker.url}/healthz`)).status, 200);
    await stopHop(hop);
    await stopHop(worker);
    assert.equal(readCounts(dataDir, link.id).clicks, CLICKS);
  });

  test('a worker killed with SIGKILL midway and restarted: every click counted once', async (t) => {
    if (!(await requireNats(t))) return;
    const dataDir = tempDataDir(t, 'hop-nats-e2e-');
    const stream = uniqueStream(t);
    const env = { ...scaledOutEnv(dataDir, stream), HOP_CLICK_BATCH: '250' };
    // 20,000 clicks waiting in the stream, as instances would have published them.
    const publisher = new JetStreamClicks({ servers: [NATS_URL], stream, onStatus: () => {} });
    t.after(() => publisher.close());
    const linkId = '01JWORKERKILLTEST000000000';
    const clicks = Array.from({ length: 20_000 }, (_, seq) => ({
      instance: 'killTest',
      seq,
      linkId,
      code: 'kill123',
      at: Date.now(),
      country: 'ZZ',
      device: 'other' as const,
      referrer: '',
      browser: 'other' as const,
      os: 'other' as const,
      city: '',
    }));
    // Published 500 at a time: 5,000 acks in flight at once can outlast the publish timeout
    // while other test files keep the machine busy (a flusher sends a failed batch again;
    // this setup step would not).
    for (let from = 0; from < clicks.length; from += 500) {
      await publisher.send(batchOf(clicks.slice(from, from + 500)));
    }
    // The store exists (migrated) before the worker opens it.
    SqliteClickDatabase.open(join(dataDir, 'clicks.db')).close();

    const first = killAfter(t, await startHopWorker(env));
    await eventually(
      async () => readCounts(dataDir, linkId).clicks > 0,
      'the worker has folded some',
      3000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const midway = readCounts(dataDir, linkId).clicks;
    console.log(`# worker killed with ${midway} of 20000 clicks folded`);
    assert.ok(midway < 20_000, 'killed midway');

    const second = killAfter(t, await startHopWorker(env));
    await eventually(
      async () => readCounts(dataDir, linkId).clicks >= 20_000,
      'the restarted worker folds the rest, redeliveries included',
      3000,
    );
    // Let any redelivery of the killed worker's unacknowledged batch arrive (ack wait: 2 s).
    const third = killAfter(t, await startHopWorker(env));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await stopHop(second);
    await stopHop(third);
    assert.equal(readCounts(dataDir, linkId).clicks, 20_000);
  });

  test('NATS down: redirects go on, clicks wait up to the buffer bound, then drop and are counted; flushing resumes by itself', async (t) => {
    const nats = await startOwnNats();
    t.after(() => nats.close());
    const dataDir = tempDataDir(t, 'hop-nats-e2e-');
    const env = { ...scaledOutEnv(dataDir, 'HOP_CLICKS', nats.url), HOP_CLICK_BUFFER: '1000' };
    const hop = killAfter(t, await startHop(env));
    const link = await createLink(hop.url);
    const url = `${hop.url}/${link.code}`;
    assert.equal((await sendClicks(url, 100, 10)).redirected, 100);
    await eventually(
      async () => (await readMetric(hop.url, 'hop_click_events_flushed_total')) === 100,
      'the first 100 flushed',
      1000,
    );

    await nats.stop();
    const during = await sendClicks(url, 1500, 10);
    assert.deepEqual(during, { redirected: 1500, failed: 0 }, 'every redirect answered');
    assert.equal(await readMetric(hop.url, 'hop_click_buffer_depth'), 1000);
    assert.equal(await readMetric(hop.url, 'hop_click_events_dropped_total'), 500);
    await eventually(
      async () => (await readMetric(hop.url, 'hop_click_flush_failures_total'))! > 0,
      'a failed send is counted',
      1000,
    );

    await nats.start();
    await eventually(
      async () => (await readMetric(hop.url, 'hop_click_buffer_depth')) === 0,
      'the buffer drained into JetStream once NATS was back',
      3000,
    );
    assert.equal(await readMetric(hop.url, 'hop_click_events_flushed_total'), 1100);

    const worker = killAfter(t, await startHopWorker(env));
    await eventually(
      async () => readCounts(dataDir, link.id).clicks >= 1100,
      'the worker folds what was kept',
      3000,
    );
    await stopHop(hop);
    await stopHop(worker);
    assert.equal(readCounts(dataDir, link.id).clicks, 1100, '100 before, 1000 kept, 500 dropped');
  });
});

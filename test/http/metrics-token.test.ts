/**
 * HOP_METRICS_TOKEN (issue 20, "/metrics can be protected"): set, /metrics of `hop serve`
 * and of `hop worker` answers only that bearer token, a 401 problem otherwise; unset, it is
 * open as before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { startWorker } from '../../src/main/worker.js';
import { createLogger } from '../../src/observability/logger.js';
import { assertProblem } from '../support/problem-assertions.js';
import { NATS_URL, requireNats, uniqueStream } from '../support/require-nats.js';
import { tempDataDir } from '../support/temp-data.js';
import { startTestServer, type TestResponse } from '../support/test-server.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const WRONG = [null, 'metrics-token-0123456789abcdeX', `${TOKEN}x`, 'x', ''].map((token) =>
  token === null ? {} : { authorization: `Bearer ${token}` },
);

async function get(url: string, headers: Record<string, string>): Promise<TestResponse> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  const json: unknown = response.headers.get('content-type')?.includes('json')
    ? JSON.parse(text)
    : undefined;
  return { status: response.status, headers: response.headers, text, json };
}

function assertRefused(response: TestResponse): void {
  assertProblem(response, 401, 'unauthorized');
  assert.match(response.json.detail, /HOP_METRICS_TOKEN/);
  assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="hop"');
  assert.doesNotMatch(response.text, /hop_/, 'no metric leaks into the refusal');
}

describe('/metrics of hop serve', () => {
  test('unset: open, as before', async (t) => {
    const server = await startTestServer();
    t.after(() => server.close());
    const response = await server.request('GET', '/metrics', { key: null });
    assert.equal(response.status, 200);
    assert.match(response.text, /^hop_links_created_total /m);
  });

  test('set: the token only; anything else is a 401 problem', async (t) => {
    const server = await startTestServer({ HOP_METRICS_TOKEN: TOKEN });
    t.after(() => server.close());
    for (const headers of WRONG) {
      assertRefused(await server.request('GET', '/metrics', { key: null, headers }));
    }
    // An admin API key is not the metrics token.
    assertRefused(await server.request('GET', '/metrics'));
    const response = await server.request('GET', '/metrics', { key: TOKEN });
    assert.equal(response.status, 200);
    assert.match(response.text, /^hop_links_created_total /m);
    const health = await server.request('GET', '/healthz', { key: null });
    assert.equal(health.status, 200, 'health stays open');
  });

  test('a token shorter than 20 characters is refused at start', () => {
    assert.throws(() => loadConfig({ HOP_METRICS_TOKEN: 'short' }), /HOP_METRICS_TOKEN/);
  });
});

describe('/metrics of hop worker', () => {
  test('set: the token only; /healthz stays open', async (t) => {
    if (!(await requireNats(t))) return;
    const config = loadConfig({
      HOP_DATA_DIR: tempDataDir(t, 'hop-worker-token-'),
      HOP_HOST: '127.0.0.1',
      HOP_WORKER_PORT: '0',
      HOP_NATS_URL: NATS_URL,
      HOP_NATS_STREAM: uniqueStream(t),
      HOP_METRICS_TOKEN: TOKEN,
    });
    const worker = await startWorker(config, createLogger('silent'));
    t.after(() => worker.stop());
    for (const headers of WRONG) assertRefused(await get(`${worker.address}/metrics`, headers));
    const response = await get(`${worker.address}/metrics`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(response.status, 200);
    assert.match(response.text, /^hop_click_events_folded_total /m);
    assert.equal((await fetch(`${worker.address}/healthz`)).status, 200);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendClicks } from '../support/click-load.js';
import { createLink } from '../support/create-link.js';
import { settleClicks } from '../support/settle-clicks.js';
import { SseReader } from '../support/sse-reader.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * ADR 0131: on the embedded store the fold writes click events only while someone can
 * read them: an open event stream (and for the window it may resume in after), or an
 * unpaused webhook taking `link.clicked`. Scaled out they are always written (the
 * PostgreSQL runs of the event and webhook suites cover that).
 */
async function clickEventsOf(server: TestServer, linkId: string): Promise<number> {
  const log = server.runtime.store.clickEvents;
  const events = await log.after('', 1_000);
  return events.filter((e) => e.linkId === linkId).reduce((n, e) => n + e.clicks, 0);
}

async function clickAndFold(server: TestServer, code: string, count: number): Promise<void> {
  const result = await sendClicks(`${server.url}/${code}`, count, 4);
  assert.equal(result.redirected, count);
  await settleClicks(server);
}

test('with no stream and no click webhook, clicks are counted and logged as visits, and no click event is written', async (t) => {
  const server = await startTestServer({ HOP_VISIT_LOG: 'on' });
  t.after(() => server.close());
  const link = await createLink(server, { destination: 'https://example.com/unread' });
  // A webhook for link events only does not read clicks.
  const hook = await server.request('POST', '/v1/webhooks', {
    body: { url: 'https://example.com/hooks', events: ['link.created'] },
  });
  assert.equal(hook.status, 201, hook.text);
  await clickAndFold(server, link.code, 12);
  assert.deepEqual((await server.runtime.store.clicks.totals([link.id])).get(link.id), {
    clicks: 12,
    botClicks: 0,
  });
  const visits = await server.request('GET', `/v1/links/${link.id}/visits?limit=100`);
  assert.equal(visits.status, 200);
  assert.equal((visits.json.visits as unknown[]).length, 12);
  assert.equal(await clickEventsOf(server, link.id), 0);
});

test('a stream opened makes the folds after it write click events, and the stream gets them', async (t) => {
  const server = await startTestServer({
    HOP_EVENT_POLL_INTERVAL: '20ms',
    HOP_EVENT_HEARTBEAT: '50ms',
  });
  t.after(() => server.close());
  const link = await createLink(server, { destination: 'https://example.com/streamed' });
  await clickAndFold(server, link.code, 5);
  assert.equal(await clickEventsOf(server, link.id), 0, 'nobody read them yet');
  const opened = await SseReader.open(`${server.url}/v1/events`, {
    authorization: `Bearer ${server.adminKey}`,
  });
  assert.ok('reader' in opened, 'the stream opened');
  const reader = opened.reader;
  t.after(() => {
    reader.close();
  });
  await clickAndFold(server, link.code, 7);
  assert.equal(await clickEventsOf(server, link.id), 7);
  const clickedCount = (r: SseReader) =>
    r.bodies
      .filter((body) => body.type === 'link.clicked' && body.data.link_id === link.id)
      .reduce((n: number, body) => n + Number(body.data.clicks.count), 0);
  await reader.waitFor((r) => clickedCount(r) === 7, 'the seven clicks');
  // Closed, it may still resume for the logs' keep: the events go on being written.
  reader.close();
  await clickAndFold(server, link.code, 3);
  assert.equal(await clickEventsOf(server, link.id), 10);
});

test('a webhook taking link.clicked makes the folds after it write click events', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const link = await createLink(server, { destination: 'https://example.com/hooked' });
  await clickAndFold(server, link.code, 4);
  const hook = await server.request('POST', '/v1/webhooks', {
    body: { url: 'https://example.com/hooks', events: ['link.clicked'] },
  });
  assert.equal(hook.status, 201, hook.text);
  await clickAndFold(server, link.code, 6);
  assert.equal(await clickEventsOf(server, link.id), 6, 'the clicks after it, not before');
});

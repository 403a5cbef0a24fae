import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { SseReader } from '../support/sse-reader.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

/**
 * `GET /v1/events` (issue 23, ADR 0129) over real HTTP on loopback, on SQLite (and on
 * PostgreSQL through test/http/on-postgres.test.ts).
 */
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('the event stream', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  const readers: SseReader[] = [];

  before(async () => {
    server = await startTestServer({
      HOP_EVENT_POLL_INTERVAL: '20ms',
      HOP_EVENT_HEARTBEAT: '50ms',
      HOP_EVENT_STREAMS_PER_KEY: '2',
    });
    alice = await server.ownerKey('alice');
    bob = await server.ownerKey('bob');
  });
  after(async () => {
    for (const reader of readers) reader.close();
    await server.close();
  });

  async function open(key: string, lastEventId?: string, query = ''): Promise<SseReader> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const opened = await SseReader.open(`${server.url}/v1/events${query}`, headers);
    assert.equal(opened.status, 200, 'text' in opened ? opened.text : '');
    assert.ok('reader' in opened);
    readers.push(opened.reader);
    return opened.reader;
  }

  /** Opens a stream expecting a problem; the response as test-server gives it. */
  async function refused(
    key: string | null,
    headers: Record<string, string> = {},
    query = '',
  ): Promise<TestResponse> {
    const all = key === null ? headers : { ...headers, authorization: `Bearer ${key}` };
    const opened = await SseReader.open(`${server.url}/v1/events${query}`, all);
    assert.ok(!('reader' in opened), 'the stream opened');
    return opened;
  }

  async function createLink(key: string, path: string): Promise<string> {
    const created = await server.request('POST', '/v1/links', {
      key,
      body: { destination: `https://example.com/${path}` },
    });
    assert.equal(created.status, 201, created.text);
    return created.json.id as string;
  }

  async function editLink(key: string, id: string, path: string): Promise<void> {
    const edited = await server.request('PATCH', `/v1/links/${id}`, {
      key,
      body: { destination: `https://example.com/${path}` },
    });
    assert.equal(edited.status, 200, edited.text);
  }

  /** The (type, link id) of each event of `reader` about the links in `ids`. */
  function about(reader: SseReader, ids: readonly string[]): [string, string][] {
    return reader.bodies
      .filter((body) => ids.includes(body.data.id))
      .map((body) => [body.type as string, body.data.id as string]);
  }

  describe('happy', () => {
    test('an owner sees the create and the edit of its link, in order, as the API writes it', async () => {
      const stream = await open(alice);
      const id = await createLink(alice, 'first');
      await editLink(alice, id, 'second');
      await stream.waitFor((r) => about(r, [id]).length === 2, 'the create and the edit');
      assert.deepEqual(about(stream, [id]), [
        ['link.created', id],
        ['link.updated', id],
      ]);
      const [created, updated] = stream.events;
      assert.equal(created?.event, 'link.created');
      assert.equal(updated?.event, 'link.updated');
      const body = stream.bodies[1];
      assert.equal(body.data.destination, 'https://example.com/second');
      assert.equal(body.data.owner, 'alice');
      assert.equal(body.data.version, 2);
      assert.equal(typeof body.data.short_url, 'string');
      assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
      // Every id names both logs: `<links>~<clicks>`.
      assert.match(updated?.id ?? '', /^[\d:]+~[\d:]*$/);
      stream.close();
    });

    test('a create, an edit and a batch of clicks arrive in order; the clicks counted per second', async () => {
      const stream = await open(alice);
      const id = await createLink(alice, 'clicked');
      await editLink(alice, id, 'clicked-again');
      const link = await server.request('GET', `/v1/links/${id}`, { key: alice });
      assert.equal(link.status, 200, link.text);
      const code = link.json.code as string;
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${server.url}/${code}`, {
          redirect: 'manual',
          headers: { 'user-agent': DESKTOP, 'accept-language': 'fr-CH, fr;q=0.9' },
        });
        assert.equal(response.status, 302);
      }
      await settleClicks(server);
      const mine = (r: SseReader) =>
        r.bodies.filter((body) => body.data.id === id || body.data.link_id === id);
      await stream.waitFor(
        (r) =>
          mine(r).reduce((n: number, body) => n + Number(body.data.clicks?.count ?? 0), 0) === 3,
        'the three clicks',
      );
      const events = mine(stream);
      assert.deepEqual(
        events.slice(0, 2).map((body) => body.type),
        ['link.created', 'link.updated'],
      );
      const clicked = events.slice(2);
      assert.ok(clicked.length >= 1 && clicked.every((body) => body.type === 'link.clicked'));
      // Batched per link and second: three clicks in at most as many seconds, never one each more.
      assert.ok(clicked.length <= 3, `${clicked.length} click events`);
      const languages = clicked.reduce(
        (n: number, body) => n + Number(body.data.clicks.languages?.fr ?? 0),
        0,
      );
      assert.equal(languages, 3);
      stream.close();
    });

    test('answers as a stream nothing may buffer, store or compress', async () => {
      const opened = await SseReader.open(`${server.url}/v1/events`, {
        authorization: `Bearer ${alice}`,
        'accept-encoding': 'gzip, br',
      });
      assert.equal(opened.status, 200);
      assert.ok('reader' in opened);
      readers.push(opened.reader);
      assert.match(opened.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(opened.headers.get('cache-control'), 'no-store');
      assert.equal(opened.headers.get('x-accel-buffering'), 'no');
      assert.equal(opened.headers.get('content-encoding'), null);
      assert.equal(opened.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(opened.headers.get('x-request-id'));
      opened.reader.close();
    });

    test('another owner’s links are not seen; an admin sees both', async () => {
      const aliceStream = await open(alice);
      const adminStream = await open(server.adminKey);
      const bobs = await createLink(bob, 'bobs');
      const alices = await createLink(alice, 'alices');
      await aliceStream.waitFor((r) => about(r, [alices]).length === 1, "alice's create");
      await adminStream.waitFor((r) => about(r, [bobs, alices]).length === 2, 'both creates');
      // The log is read in order: bob's create came before alice's, and was not sent.
      assert.deepEqual(about(aliceStream, [bobs]), []);
      assert.deepEqual(about(adminStream, [bobs, alices]), [
        ['link.created', bobs],
        ['link.created', alices],
      ]);
      aliceStream.close();
      adminStream.close();
    });

    test('a client that reconnects with Last-Event-ID misses nothing and gets nothing twice', async () => {
      const first = await open(alice);
      const kept = await createLink(alice, 'kept');
      await first.waitFor((r) => about(r, [kept]).length === 1, 'the create');
      const lastId = first.events.at(-1)?.id;
      assert.ok(lastId !== undefined);
      first.close();

      // While it is away:
      await editLink(alice, kept, 'kept-2');
      const gone = await createLink(alice, 'gone');
      await createLink(bob, 'not-alices');
      const deleted = await server.request('DELETE', `/v1/links/${gone}`, { key: alice });
      assert.equal(deleted.status, 204, deleted.text);

      const again = await open(alice, lastId);
      await again.waitFor((r) => r.events.length >= 3, 'the missed events');
      // And live after the replay, in the same stream.
      await editLink(alice, kept, 'kept-3');
      await again.waitFor((r) => r.events.length >= 4, 'the live edit');
      assert.deepEqual(about(again, [kept, gone]), [
        ['link.updated', kept],
        ['link.created', gone],
        ['link.deleted', gone],
        ['link.updated', kept],
      ]);
      assert.deepEqual(again.bodies.map((body) => body.data.destination ?? null).slice(-1), [
        'https://example.com/kept-3',
      ]);
      assert.equal(new Set(again.events.map((event) => event.id)).size, again.events.length);

      // The same from the query string (for clients that cannot set headers), from the
      // first reconnect's second event: the rest, then nothing more.
      const fromSecond = again.events[1]?.id;
      assert.ok(fromSecond !== undefined);
      again.close();
      const byQuery = await open(
        alice,
        undefined,
        `?last_event_id=${encodeURIComponent(fromSecond)}`,
      );
      await byQuery.waitFor((r) => r.events.length >= 2, 'the rest');
      assert.deepEqual(about(byQuery, [kept, gone]), [
        ['link.deleted', gone],
        ['link.updated', kept],
      ]);
      byQuery.close();
    });

    test('`~` replays the whole window of the caller’s events', async () => {
      const fresh = await server.ownerKey('carol');
      const one = await createLink(fresh, 'one');
      const two = await createLink(fresh, 'two');
      const stream = await open(fresh, '~');
      await stream.waitFor((r) => about(r, [one, two]).length === 2, 'both creates');
      assert.deepEqual(about(stream, [one, two]), [
        ['link.created', one],
        ['link.created', two],
      ]);
      stream.close();
    });

    test('heartbeats arrive while nothing happens', async () => {
      const stream = await open(bob);
      await stream.waitFor((r) => r.comments >= 3, 'two heartbeats after the first line');
      stream.close();
    });
  });

  describe('errors', () => {
    test('a malformed Last-Event-ID is 400', async () => {
      for (const id of ['12', 'abc~1', '1~2~3', '1;2~']) {
        const response = await refused(alice, { 'last-event-id': id });
        assertProblem(response, 400, 'malformed-request');
        assert.deepEqual(response.json.errors, [
          { field: 'Last-Event-ID', detail: 'not an event id' },
        ]);
      }
      const byQuery = await refused(alice, {}, '?last_event_id=nope');
      assertProblem(byQuery, 400, 'malformed-request');
    });

    test('a key past its open streams gets 429 until one closes', async () => {
      const dave = await server.ownerKey('dave');
      const one = await open(dave);
      await open(dave);
      const third = await refused(dave);
      assertProblem(third, 429, 'rate-limited');
      assert.match(third.json.detail, /HOP_EVENT_STREAMS_PER_KEY/);
      // Another key is not held back by dave's streams.
      (await open(alice)).close();
      one.close();
      let reopened: SseReader | undefined;
      for (let tries = 0; tries < 500 && reopened === undefined; tries++) {
        const opened = await SseReader.open(`${server.url}/v1/events`, {
          authorization: `Bearer ${dave}`,
        });
        if ('reader' in opened) reopened = opened.reader;
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(reopened, 'a stream closed by its client frees its place');
      readers.push(reopened);
      reopened.close();
    });
  });

  describe('security', () => {
    test('no key is 401', async () => {
      assertProblem(await refused(null), 401, 'unauthorized');
    });

    test('a key without links:read is 403 insufficient-scope', async () => {
      const issued = await server.request('POST', '/v1/keys', {
        body: { owner: 'alice', scopes: ['links:write'] },
      });
      assert.equal(issued.status, 201, issued.text);
      const response = await refused(issued.json.key as string);
      assertProblem(response, 403, 'insufficient-scope');
      assert.deepEqual(response.json.errors, [{ field: 'scope', detail: 'links:read' }]);
    });
  });
});

describe('a server with open event streams', () => {
  test('closes promptly, ending every stream', { timeout: 60_000 }, async () => {
    const server = await startTestServer({ HOP_EVENT_POLL_INTERVAL: '20ms' });
    const key = await server.ownerKey('erin');
    const streams: SseReader[] = [];
    try {
      for (const as of [key, key, server.adminKey]) {
        const opened = await SseReader.open(`${server.url}/v1/events`, {
          authorization: `Bearer ${as}`,
        });
        assert.ok('reader' in opened);
        streams.push(opened.reader);
      }
      await server.close();
      await streams[0]?.waitFor((r) => r.ended, 'the end');
      for (const stream of streams) assert.ok(stream.ended);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

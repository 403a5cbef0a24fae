import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 24: YOURLS at /yourls-api.php, driven exactly as its real clients send requests
 * (ShareX, the YOURLS browser extension, Python's `yourls`), every format and every
 * error path in YOURLS's own shapes (ADR 0135).
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const SHORT = 'http://hop.test';

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  /** The body parsed as JSON when it is, else undefined. */
  readonly json: any;
}

describe('YOURLS API (issue 24)', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let readOnlyKey: string;

  before(async () => {
    server = await startTestServer();
    key = await server.ownerKey('yourls-owner');
    otherKey = await server.ownerKey('yourls-other');
    const issued = await server.request('POST', '/v1/keys', {
      body: { owner: 'yourls-reader', scopes: ['links:read'] },
    });
    assert.equal(issued.status, 201, issued.text);
    readOnlyKey = issued.json.key as string;
  });
  after(async () => {
    await server.close();
  });

  const answerOf = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      text,
      json,
    };
  };
  const endpoint = (query: Record<string, string> = {}) =>
    `${server.url}/yourls-api.php?${new URLSearchParams(query).toString()}`;
  /** A GET as Python's `yourls` sends it: every parameter in the query. */
  const get = async (params: Record<string, string>) => answerOf(await fetch(endpoint(params)));
  /** A POST form as the browser extension sends it (urlencoded). */
  const postForm = async (params: Record<string, string>) =>
    answerOf(
      await fetch(endpoint(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      }),
    );
  /** A POST as ShareX sends it (multipart form fields). */
  const postMultipart = async (params: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(params)) form.append(name, value);
    return answerOf(await fetch(endpoint(), { method: 'POST', body: form }));
  };
  const json = (params: Record<string, string>, signature = key) =>
    get({ ...params, format: 'json', signature });
  const click = async (code: string, times: number) => {
    for (let n = 0; n < times; n++) {
      const response = await fetch(`${server.url}/${code}`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER },
      });
      assert.equal(response.status, 302);
    }
  };
  const foldClicks = async () => {
    const pipeline = server.runtime.clicks;
    assert.ok(pipeline !== null && pipeline.aggregator !== null);
    await pipeline.flusher.flush();
    await pipeline.aggregator.drain();
  };

  describe('the real clients', () => {
    test('ShareX: multipart POST, format=simple; the body is the short URL, which redirects', async () => {
      const answer = await postMultipart({
        signature: key,
        action: 'shorturl',
        url: 'https://sharex.example/screenshot.png',
        format: 'simple',
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.type, 'text/plain; charset=utf-8');
      assert.match(answer.text, /^http:\/\/hop\.test\/[A-Za-z0-9_-]+$/);
      const redirect = await fetch(`${server.url}${answer.text.slice(SHORT.length)}`, {
        redirect: 'manual',
      });
      assert.equal(redirect.headers.get('location'), 'https://sharex.example/screenshot.png');
    });

    test('the browser extension: urlencoded POST with a keyword; a taken keyword is an empty 400', async () => {
      const form = {
        action: 'shorturl',
        format: 'simple',
        url: 'https://extension.example/page',
        signature: key,
        keyword: 'ext-kw',
      };
      const made = await postForm(form);
      assert.equal(made.status, 200, made.text);
      assert.equal(made.text, `${SHORT}/ext-kw`);
      const taken = await postForm({ ...form, url: 'https://extension.example/other' });
      assert.equal(taken.status, 400);
      assert.equal(taken.text, '');
    });

    test('python-yourls shorten: GET format=json; url.date, url.ip, url.title, shorturl, in YOURLS key order', async () => {
      const answer = await json({
        action: 'shorturl',
        url: 'https://python.example/a',
        keyword: 'py-kw',
        title: 'Python',
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.type, 'application/json; charset=utf-8');
      assert.deepEqual(answer.json, {
        status: 'success',
        code: '',
        message: 'https://python.example/a added to database',
        errorCode: '',
        statusCode: '200',
        url: {
          keyword: 'py-kw',
          url: 'https://python.example/a',
          title: 'Python',
          date: '2026-06-01 12:00:00',
          ip: '',
        },
        title: 'Python',
        shorturl: `${SHORT}/py-kw`,
      });
      assert.deepEqual(Object.keys(answer.json), [
        'status',
        'code',
        'message',
        'errorCode',
        'statusCode',
        'url',
        'title',
        'shorturl',
      ]);
      // PHP's json_encode escapes slashes; parsed, it is the same JSON.
      assert.ok(answer.text.includes('"shorturl":"http:\\/\\/hop.test\\/py-kw"'), answer.text);
    });

    test('python-yourls: a link without a title shows its long URL as the title, as YOURLS stores it', async () => {
      const answer = await json({ action: 'shorturl', url: 'https://python.example/untitled' });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.url.title, 'https://python.example/untitled');
      assert.equal(answer.json.title, 'https://python.example/untitled');
      const viaV1 = await server.request('GET', `/v1/links/${answer.json.url.keyword as string}`, {
        key,
      });
      assert.equal(viaV1.json.title, null);
    });

    test('python-yourls expand and url-stats, by keyword and by full short URL', async () => {
      await json({ action: 'shorturl', url: 'https://python.example/stats', keyword: 'py-stats' });
      await click('py-stats', 2);
      await foldClicks();
      const expanded = await json({ action: 'expand', shorturl: 'py-stats' });
      assert.equal(expanded.status, 200);
      assert.deepEqual(expanded.json, {
        keyword: 'py-stats',
        shorturl: `${SHORT}/py-stats`,
        longurl: 'https://python.example/stats',
        title: 'https://python.example/stats',
        message: 'success',
        statusCode: '200',
      });
      const byUrl = await json({ action: 'expand', shorturl: `${SHORT}/py-stats` });
      assert.equal(byUrl.json.longurl, 'https://python.example/stats');
      const stats = await json({ action: 'url-stats', shorturl: `${SHORT}/py-stats` });
      assert.equal(stats.status, 200);
      assert.deepEqual(stats.json, {
        statusCode: '200',
        message: 'success',
        link: {
          shorturl: `${SHORT}/py-stats`,
          url: 'https://python.example/stats',
          title: 'https://python.example/stats',
          timestamp: '2026-06-01 12:00:00',
          ip: '',
          clicks: '2',
        },
      });
    });

    test('python-yourls stats(filter, limit) reads link_1…link_N; db-stats the totals', async () => {
      const owner = await server.ownerKey('yourls-stats-owner');
      const made: string[] = [];
      for (const [i, clicks] of [1, 3, 0].entries()) {
        const answer = await json(
          { action: 'shorturl', url: `https://stats.example/${i}`, keyword: `st-${i}` },
          owner,
        );
        assert.equal(answer.status, 200, answer.text);
        made.push(answer.json.url.keyword as string);
        server.clock.advance(1000);
        await click(`st-${i}`, clicks);
      }
      await foldClicks();
      const codesOf = (body: any) =>
        Object.values(body.links as Record<string, { shorturl: string }>).map((link) =>
          link.shorturl.slice(SHORT.length + 1),
        );

      const top = await json({ action: 'stats', filter: 'top', limit: '2' }, owner);
      assert.equal(top.status, 200);
      assert.deepEqual(Object.keys(top.json), ['links', 'stats', 'statusCode', 'message']);
      assert.deepEqual(Object.keys(top.json.links), ['link_1', 'link_2']);
      assert.deepEqual(codesOf(top.json), ['st-1', 'st-0']);
      assert.deepEqual(top.json.stats, { total_links: 3, total_clicks: 4 });
      assert.deepEqual(top.json.links.link_1, {
        shorturl: `${SHORT}/st-1`,
        url: 'https://stats.example/1',
        title: 'https://stats.example/1',
        timestamp: '2026-06-01 12:00:01',
        ip: '',
        clicks: '3',
      });
      const bottom = await json({ action: 'stats', filter: 'bottom', limit: '1' }, owner);
      assert.deepEqual(codesOf(bottom.json), ['st-2']);
      const last = await json({ action: 'stats', filter: 'last', limit: '3' }, owner);
      assert.deepEqual(codesOf(last.json), ['st-2', 'st-1', 'st-0']);
      const offset = await json({ action: 'stats', filter: 'last', limit: '5', start: '1' }, owner);
      assert.deepEqual(codesOf(offset.json), ['st-1', 'st-0']);
      const random = await json({ action: 'stats', filter: 'rand', limit: '3' }, owner);
      assert.deepEqual(codesOf(random.json).sort(), ['st-0', 'st-1', 'st-2']);
      // YOURLS's action passes no limit unless asked: then there is no `links` key at all.
      const noLimit = await json({ action: 'stats', filter: 'top' }, owner);
      assert.deepEqual(noLimit.json, {
        stats: { total_links: 3, total_clicks: 4 },
        statusCode: '200',
        message: 'success',
      });
      const simple = await get({ action: 'stats', limit: '1', format: 'simple', signature: owner });
      assert.equal(simple.text, 'Need either XML or JSON format for stats');

      const db = await json({ action: 'db-stats' }, owner);
      assert.equal(db.status, 200);
      assert.deepEqual(db.json, {
        'db-stats': { total_links: 3, total_clicks: 4 },
        statusCode: '200',
        message: 'success',
      });
      // Another owner's totals are its own.
      const fresh = await server.ownerKey('yourls-empty-owner');
      const none = await json({ action: 'db-stats' }, fresh);
      assert.deepEqual(none.json['db-stats'], { total_links: 0, total_clicks: 0 });
    });
  });

  describe('what YOURLS decides on a create', () => {
    test('a long URL the caller already shortened: error:url, HTTP 400, with the existing link', async () => {
      const first = await json({ action: 'shorturl', url: 'https://unique.example/x' });
      assert.equal(first.status, 200, first.text);
      const code = first.json.url.keyword as string;
      const again = await json({ action: 'shorturl', url: 'https://unique.example/x' });
      assert.equal(again.status, 400);
      assert.deepEqual(again.json, {
        status: 'fail',
        code: 'error:url',
        message: `https://unique.example/x already exists in database (short URL: hop.test/${code})`,
        errorCode: '400',
        statusCode: '400',
        url: {
          keyword: code,
          url: 'https://unique.example/x',
          title: 'https://unique.example/x',
          date: first.json.url.date,
          ip: '',
          clicks: '0',
        },
        title: 'https://unique.example/x',
        shorturl: `${SHORT}/${code}`,
      });
      const simple = await get({
        action: 'shorturl',
        url: 'https://unique.example/x',
        format: 'simple',
        signature: key,
      });
      assert.equal(simple.status, 400);
      assert.equal(simple.text, `${SHORT}/${code}`);
      // Another owner's link to the same URL is not the caller's: a new link.
      const other = await json({ action: 'shorturl', url: 'https://unique.example/x' }, otherKey);
      assert.equal(other.status, 200, other.text);
      assert.notEqual(other.json.url.keyword, code);
    });

    test('a taken keyword, and a reserved one: error:keyword with YOURLS message', async () => {
      await json({ action: 'shorturl', url: 'https://kw.example/1', keyword: 'taken-kw' });
      for (const keyword of ['taken-kw', 'admin']) {
        const answer = await json({ action: 'shorturl', url: 'https://kw.example/2', keyword });
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.json, {
          status: 'fail',
          code: 'error:keyword',
          message: `Short URL ${keyword} already exists in database or is reserved`,
          errorCode: '400',
          statusCode: '400',
        });
      }
      const badChars = await json({
        action: 'shorturl',
        url: 'https://kw.example/3',
        keyword: 'no spaces!',
      });
      assert.equal(badChars.status, 400);
      assert.equal(badChars.json.code, 'error:keyword');
      assert.equal(badChars.json.status, 'fail');
    });

    test('a missing, a malformed and a looping URL: error:nourl and error:noloop', async () => {
      const missing = await json({ action: 'shorturl' });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.json, {
        status: 'fail',
        code: 'error:nourl',
        message: 'Missing or malformed URL',
        errorCode: '400',
        statusCode: '400',
      });
      const malformed = await json({ action: 'shorturl', url: 'javascript:alert(1)' });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.json.code, 'error:nourl');
      assert.equal(malformed.json.errorCode, '400');
      const loop = await json({ action: 'shorturl', url: `${SHORT}/py-kw` });
      assert.equal(loop.status, 400);
      assert.deepEqual(loop.json, {
        status: 'fail',
        code: 'error:noloop',
        message: 'URL is a short URL',
        errorCode: '400',
        statusCode: '400',
      });
    });
  });

  describe('expand and url-stats find links however they are named', () => {
    test('an unknown short URL: 404 in YOURLS shapes; someone else’s link is unknown too', async () => {
      const expand = await json({ action: 'expand', shorturl: 'no-such-link' });
      assert.equal(expand.status, 404);
      assert.deepEqual(expand.json, {
        keyword: 'no-such-link',
        message: 'Error: short URL not found',
        errorCode: '404',
      });
      const simple = await get({
        action: 'expand',
        shorturl: 'no-such-link',
        format: 'simple',
        signature: key,
      });
      assert.equal(simple.status, 404);
      assert.equal(simple.text, 'not found');
      const stats = await json({ action: 'url-stats', shorturl: `${SHORT}/no-such-link` });
      assert.equal(stats.status, 404);
      assert.deepEqual(stats.json, { statusCode: '404', message: 'Error: short URL not found' });
      const theirs = await json({ action: 'expand', shorturl: 'py-kw' }, otherKey);
      assert.equal(theirs.status, 404);
    });

    test('an imported 1- or 2-character YOURLS keyword is found by expand and url-stats', async () => {
      const now = server.clock.now();
      const imported = (code: string): Link => ({
        id: server.runtime.linkService.newId(),
        domain: '',
        code,
        owner: 'yourls-owner',
        destination: `https://imported.example/${code}`,
        statusCode: 302,
        state: 'active',
        custom: true,
        title: null,
        tags: [],
        createdAt: now,
        updatedAt: now,
        expiresAt: null,
        deletedAt: null,
        version: 1,
        smart: null,
        preview: null,
        crawlable: false,
      });
      await server.runtime.linkService.links.importLinks([imported('q'), imported('z9')]);
      for (const code of ['q', 'z9']) {
        const expanded = await json({ action: 'expand', shorturl: code });
        assert.equal(expanded.status, 200, expanded.text);
        assert.equal(expanded.json.longurl, `https://imported.example/${code}`);
        const stats = await json({ action: 'url-stats', shorturl: `${SHORT}/${code}` });
        assert.equal(stats.status, 200, stats.text);
        assert.equal(stats.json.link.clicks, '0');
      }
    });

    test('an edit through /v1 shows through expand', async () => {
      const made = await json({
        action: 'shorturl',
        url: 'https://edit.example/old',
        keyword: 'edit-kw',
      });
      assert.equal(made.status, 200, made.text);
      const edited = await server.request('PATCH', '/v1/links/edit-kw', {
        key,
        body: { destination: 'https://edit.example/new', title: 'New' },
      });
      assert.equal(edited.status, 200, edited.text);
      const expanded = await json({ action: 'expand', shorturl: 'edit-kw' });
      assert.equal(expanded.json.longurl, 'https://edit.example/new');
      assert.equal(expanded.json.title, 'New');
    });
  });

  test('each short domain answers as its own YOURLS: creates and bare keywords on the Host called', async () => {
    const domain = await server.request('POST', '/v1/domains', {
      body: { host: 'go.yourls.test' },
    });
    assert.equal(domain.status, 201, domain.text);
    /** A GET with another Host, as a client configured with that domain sends it. */
    const onDomain = (params: Record<string, string>) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const query = new URLSearchParams({ ...params, format: 'json', signature: key });
        const { port } = new URL(server.url);
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: `/yourls-api.php?${query.toString()}`,
            headers: { host: 'go.yourls.test' },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => {
              resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
            });
          },
        );
        request.on('error', reject);
        request.end();
      });
    const made = await onDomain({
      action: 'shorturl',
      url: 'https://domain.example/',
      keyword: 'on-go',
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.shorturl, 'https://go.yourls.test/on-go');
    assert.equal((await onDomain({ action: 'expand', shorturl: 'on-go' })).status, 200);
    // On the default domain the bare keyword names no link; the full short URL does.
    assert.equal((await json({ action: 'expand', shorturl: 'on-go' })).status, 404);
    const byUrl = await json({ action: 'expand', shorturl: 'https://go.yourls.test/on-go' });
    assert.equal(byUrl.json.longurl, 'https://domain.example/');
  });

  describe('formats', () => {
    test('xml is the default: spatie/array-to-xml under <root>, empty values as empty elements', async () => {
      const answer = await get({ action: 'expand', shorturl: 'py-kw', signature: key });
      assert.equal(answer.status, 200);
      assert.equal(answer.type, 'application/xml; charset=utf-8');
      assert.equal(
        answer.text,
        '<?xml version="1.0" encoding="UTF-8"?>\n<root><keyword>py-kw</keyword>' +
          `<shorturl>${SHORT}/py-kw</shorturl><longurl>https://python.example/a</longurl>` +
          '<title>Python</title><message>success</message><statusCode>200</statusCode></root>\n',
      );
      const created = await get({
        action: 'shorturl',
        url: 'https://xml.example/?a=1&b=<2>',
        signature: key,
        format: 'xml',
      });
      assert.equal(created.status, 200);
      assert.match(created.text, /<code\/>/);
      assert.match(
        created.text,
        /<url><keyword>[^<]+<\/keyword><url>https:\/\/xml\.example\/\?a=1&amp;b=%3C2%3E<\/url>/,
      );
      assert.match(created.text, /<ip\/><\/url>/);
    });

    test('jsonp wraps the JSON in the callback (also from `jsonp`), which the fields echo', async () => {
      const answer = await get({
        action: 'version',
        format: 'jsonp',
        callback: 'handle.it_$1',
        signature: key,
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.type, 'application/javascript; charset=utf-8');
      assert.equal(answer.text, 'handle.it_$1({"version":"1.10.4","callback":"handle.it_$1"})');
      const viaJsonp = await get({
        action: 'version',
        format: 'jsonp',
        jsonp: 'cb',
        signature: key,
      });
      assert.equal(viaJsonp.text, 'cb({"version":"1.10.4","callback":"cb"})');
      const inJson = await get({
        action: 'version',
        format: 'json',
        callback: 'cb',
        signature: key,
      });
      assert.deepEqual(inJson.json, { version: '1.10.4', callback: 'cb' });
    });

    test('jsonp with a bad callback: 400 "Invalid callback parameter"', async () => {
      for (const callback of ['alert(1)', 'x\\u2028', '']) {
        const answer = await get({ action: 'version', format: 'jsonp', callback, signature: key });
        assert.equal(answer.status, 400, callback);
        assert.equal(answer.text, '{"errorCode":"400","error":"Invalid callback parameter"}');
      }
    });

    test('simple is the bare value; an unknown format is simple too', async () => {
      for (const format of ['simple', 'yaml']) {
        const answer = await get({ action: 'version', format, signature: key });
        assert.equal(answer.status, 200);
        assert.equal(answer.type, 'text/plain; charset=utf-8');
        assert.equal(answer.text, '1.10.4');
      }
      const withDb = await json({ action: 'version', db: '1' });
      assert.deepEqual(withDb.json, { version: '1.10.4', db_version: '507' });
    });
  });

  describe('errors', () => {
    test('no action and an unknown action: 400 "Unknown or missing \\"action\\" parameter"', async () => {
      for (const params of [{}, { action: 'frobnicate' }, { action: 'constructor' }]) {
        const answer = await json(params);
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.json, {
          errorCode: '400',
          message: 'Unknown or missing "action" parameter',
        });
      }
      const simple = await get({ action: 'nope', format: 'simple', signature: key });
      assert.equal(simple.text, 'Unknown or missing "action" parameter');
    });

    test('no key, an unknown key, a timestamp signature: 403 "Please log in", as YOURLS answers', async () => {
      const expected = { message: 'Please log in', errorCode: '403', callback: '' };
      const none = await get({ action: 'version', format: 'json' });
      assert.equal(none.status, 403);
      assert.deepEqual(none.json, expected);
      assert.equal(none.text, '{"message":"Please log in","errorCode":"403","callback":""}');
      const unknown = await json({ action: 'version' }, 'hop_not_a_key');
      assert.equal(unknown.status, 403);
      assert.deepEqual(unknown.json, expected);
      // hop keeps only hashes of its keys: a time-limited signature cannot be checked.
      const timed = await get({
        action: 'version',
        format: 'json',
        timestamp: String(Math.floor(Date.now() / 1000)),
        signature: key,
      });
      assert.equal(timed.status, 403);
      assert.deepEqual(timed.json, expected);
      const xml = await get({ action: 'version' });
      assert.equal(
        xml.text,
        '<?xml version="1.0" encoding="UTF-8"?>\n<root><message>Please log in</message><errorCode>403</errorCode><callback/></root>\n',
      );
    });

    test('username + password: the key as the password works; a wrong one is "Invalid username or password"', async () => {
      const works = await get({
        action: 'version',
        format: 'json',
        username: 'anyone',
        password: key,
      });
      assert.equal(works.status, 200);
      const wrong = await postMultipart({
        action: 'shorturl',
        format: 'json',
        url: 'https://widget.example/',
        username: 'anyone',
        password: 'wrong',
      });
      assert.equal(wrong.status, 403);
      assert.deepEqual(wrong.json, {
        message: 'Invalid username or password',
        errorCode: '403',
        callback: '',
      });
    });

    test('a key without the scope: 403 in the same shape', async () => {
      const answer = await json({ action: 'shorturl', url: 'https://scope.example/' }, readOnlyKey);
      assert.equal(answer.status, 403);
      assert.deepEqual(answer.json, {
        errorCode: '403',
        message: 'This key lacks the scope "links:write".',
      });
      const reads = await json({ action: 'db-stats' }, readOnlyKey);
      assert.equal(reads.status, 200);
    });

    test('a file in the form is refused with a YOURLS 400; a JSON body is ignored as PHP ignores it', async () => {
      const form = new FormData();
      form.append('action', 'version');
      form.append('format', 'json');
      form.append('signature', key);
      form.append('upload', new Blob(['data']), 'file.txt');
      const refused = await answerOf(await fetch(endpoint(), { method: 'POST', body: form }));
      assert.equal(refused.status, 400);
      assert.equal(refused.json.errorCode, '400');
      assert.equal(typeof refused.json.message, 'string');
      const ignored = await answerOf(
        await fetch(endpoint({ action: 'version', format: 'json', signature: key }), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"action": "shorturl", not json',
        }),
      );
      assert.equal(ignored.status, 200);
      assert.deepEqual(ignored.json, { version: '1.10.4' });
    });

    test('a multipart body without its boundary, or cut short: a YOURLS 400, never a 500', async () => {
      const query = { action: 'version', format: 'json', signature: key };
      const noBoundary = await answerOf(
        await fetch(endpoint(query), {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data' },
          body: 'action=version',
        }),
      );
      assert.equal(noBoundary.status, 400, noBoundary.text);
      assert.equal(noBoundary.json.errorCode, '400');
      assert.match(noBoundary.json.message, /^The request could not be read: /);
      const cutShort = await answerOf(
        await fetch(endpoint(query), {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
          body: '--XyZ\r\nContent-Disposition: form-data; name="action"\r\n\r\nvers',
        }),
      );
      assert.equal(cutShort.status, 400, cutShort.text);
      assert.equal(cutShort.json.errorCode, '400');
    });

    test('other methods reach the script too, which finds no action it knows', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const answer = await answerOf(
          await fetch(endpoint({ action: 'version', format: 'json', signature: key }), {
            method,
          }),
        );
        assert.equal(answer.status, 400, `${method}: ${answer.text}`);
        assert.deepEqual(answer.json, {
          errorCode: '400',
          message: 'Unknown or missing "action" parameter',
        });
      }
    });

    test("a link's id is not a keyword: expand and url-stats find only codes", async () => {
      const made = await json({
        action: 'shorturl',
        url: 'https://by-id.example/',
        keyword: 'byid',
      });
      assert.equal(made.status, 200, made.text);
      const id = (await server.request('GET', '/v1/links/byid', { key })).json.id as string;
      const expanded = await json({ action: 'expand', shorturl: id });
      assert.equal(expanded.status, 404);
      assert.equal(expanded.json.keyword, id);
      assert.equal((await json({ action: 'url-stats', shorturl: id })).status, 404);
    });

    test("a title over hop's 200 characters is cut, not refused (YOURLS keeps any title)", async () => {
      const made = await json({
        action: 'shorturl',
        url: 'https://long-title.example/',
        title: 'T'.repeat(5000),
      });
      assert.equal(made.status, 200, made.text);
      assert.equal(made.json.title.length, 200);
      assert.ok(made.json.title.endsWith('…'));
    });

    test("a keyword hop's alias rules refuse keeps shorturl's five keys and an empty simple body", async () => {
      const params = {
        action: 'shorturl',
        url: 'https://expiry.example/',
        keyword: 'x'.repeat(65),
        signature: key,
      };
      const refused = await get({ ...params, format: 'json' });
      assert.equal(refused.status, 400);
      assert.deepEqual(Object.keys(refused.json).slice(0, 5), [
        'status',
        'code',
        'message',
        'errorCode',
        'statusCode',
      ]);
      assert.equal(refused.json.status, 'fail');
      const simple = await get({ ...params, format: 'simple' });
      assert.equal(simple.status, 400);
      assert.equal(simple.text, '');
    });
  });
});

describe('YOURLS API past the create rate limit (issue 24)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_CREATE_RATE: '1/m:2' });
  });
  after(async () => {
    await server.close();
  });

  test('429 error:flood with Retry-After, in the shorturl shape', async () => {
    const key = await server.ownerKey('yourls-busy');
    const shorten = (n: number) =>
      fetch(
        `${server.url}/yourls-api.php?${new URLSearchParams({
          action: 'shorturl',
          format: 'json',
          signature: key,
          url: `https://busy.example/${n}`,
        }).toString()}`,
      );
    assert.equal((await shorten(1)).status, 200);
    assert.equal((await shorten(2)).status, 200);
    const refused = await shorten(3);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.deepEqual(await refused.json(), {
      status: 'fail',
      code: 'error:flood',
      message: 'Too many URLs added too fast. Slow down please.',
      errorCode: '429',
      statusCode: '429',
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NOT_FOUND_BODY } from '../../src/http/redirect-front.js';
import { settleClicks } from '../support/settle-clicks.js';
import { createLink } from '../support/create-link.js';
import { DESKTOP } from '../support/user-agents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** What Chromium and Firefox send when they follow a link. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const BROWSER = { accept: BROWSER_ACCEPT };

/** The console's security headers (src/http/console/console-headers.ts), on every page. */
function assertPageSecurityHeaders(headers: Headers, where: string): void {
  assert.match(headers.get('content-security-policy') ?? '', /default-src 'none'/, where);
  assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, where);
  assert.equal(headers.get('x-frame-options'), 'DENY', where);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', where);
  assert.equal(headers.get('referrer-policy'), 'no-referrer', where);
}

/** The headers a page's bytes depend on: equal for every kind of miss. */
function pageHeaders(headers: Headers): Record<string, string | null> {
  const names = [
    'content-type',
    'content-length',
    'content-language',
    'cache-control',
    'vary',
    'content-security-policy',
    'x-frame-options',
    'x-content-type-options',
    'referrer-policy',
    'location',
  ];
  return Object.fromEntries(names.map((name) => [name, headers.get(name)]));
}

describe('what a browser meets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const create = (body: Record<string, unknown>) => createLink(server, body);

  /** Paths of every kind of miss: unknown, disabled, deleted, expired, impossible, reserved. */
  const missPaths = async (): Promise<string[]> => {
    const disabled = await create({ destination: 'https://example.com/d' });
    await server.request('POST', `/v1/links/${disabled.id}/disable`);
    const deleted = await create({ destination: 'https://example.com/x' });
    await server.request('DELETE', `/v1/links/${deleted.id}`);
    const expiring = await create({ destination: 'https://example.com/e', ttl_seconds: 60 });
    assert.equal((await server.request('GET', `/${expiring.code}`, { key: null })).status, 302);
    server.clock.advance(60_000);
    return [
      '/Unknown1',
      `/${disabled.code}`,
      `/${deleted.code}`,
      `/${expiring.code}`,
      `/${expiring.code}/`,
      '/a!', // a character no code has
      `/${'x'.repeat(65)}`, // too long
      '/bad,char',
      '/Healthz', // reserved words, answered by Fastify's route
      '/favicon.ico',
      '/a/b/', // no route at all
    ];
  };

  test('every kind of miss gets one page, byte for byte, with the same headers', async () => {
    const paths = await missPaths();
    const responses = await Promise.all(
      paths.map((path) => server.request('GET', path, { key: null, headers: BROWSER })),
    );
    const first = responses[0]!;
    assert.equal(first.status, 404);
    assert.match(first.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/);
    assert.match(first.text, /This link does not exist or is no longer active\./);
    assert.match(first.text, /<html lang="en">/);
    assert.equal(first.headers.get('content-language'), 'en');
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.headers.get('vary'), 'Accept, Accept-Language');
    assert.equal(Number(first.headers.get('content-length')), Buffer.byteLength(first.text));
    for (const [index, response] of responses.entries()) {
      const path = paths[index]!;
      assert.equal(response.status, 404, path);
      assert.equal(response.text, first.text, `${path} answers the same bytes`);
      assert.deepEqual(pageHeaders(response.headers), pageHeaders(first.headers), path);
      assertPageSecurityHeaders(response.headers, path);
    }
    const head = await server.request('HEAD', paths[1]!, { key: null, headers: BROWSER });
    assert.equal(head.status, 404);
    assert.equal(head.text, '');
    assert.match(head.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('API clients keep problem+json, the same bytes as before', async () => {
    const paths = await missPaths();
    // Every path but the last: a path of no route has its own problem detail, as before.
    for (const path of paths.slice(0, -1)) {
      for (const accept of [
        undefined, // fetch sends */*
        'application/json',
        'application/problem+json',
        '*/*',
        'text/*',
        'text/html;q=0',
        'text/html;q=0.5, application/json',
        'application/json, text/html', // a tie keeps the API's own type
        'text/html;q=2', // not a qvalue: not wanted
      ]) {
        const response = await server.request('GET', path, {
          key: null,
          headers: accept === undefined ? {} : { accept },
        });
        assert.equal(response.status, 404, `${path} ${accept}`);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(response.text, NOT_FOUND_BODY, `${path} ${accept}`);
      }
    }
    const asked = await server.request('GET', '/Unknown1', {
      key: null,
      headers: { accept: 'application/json;q=0.5, TEXT/HTML' },
    });
    assert.match(asked.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('the page speaks the language the browser asks for, English otherwise', async () => {
    const page = async (acceptLanguage: string | undefined) => {
      const headers: Record<string, string> = { ...BROWSER };
      if (acceptLanguage !== undefined) headers['accept-language'] = acceptLanguage;
      const response = await server.request('GET', '/Unknown1', { key: null, headers });
      assert.equal(response.status, 404);
      return response;
    };
    const german = await page('de-DE,de;q=0.9,en;q=0.8');
    assert.equal(german.headers.get('content-language'), 'de');
    assert.match(german.text, /<html lang="de">/);
    assert.match(german.text, /Dieser Link existiert nicht oder ist nicht mehr aktiv\./);
    assert.equal(german.text, (await page('de')).text, 'one page per language');
    const cases: readonly (readonly [string | undefined, string])[] = [
      ['fr-CH, fr;q=0.9', 'fr'],
      ['es', 'es'],
      ['en;q=0.3, es;q=0.8, de;q=0.5', 'es'],
      ['ja, zh-CN;q=0.9, de;q=0.1', 'de'],
      ['de;q=0, fr;q=0', 'en'],
      ['ja, pt-BR', 'en'],
      ['*', 'en'],
      ['', 'en'],
      [undefined, 'en'],
      ['de;q=banana, fr;q=0.2', 'fr'],
    ];
    for (const [acceptLanguage, language] of cases) {
      const response = await page(acceptLanguage);
      assert.equal(response.headers.get('content-language'), language, String(acceptLanguage));
      assert.match(response.text, new RegExp(`<html lang="${language}">`));
    }
    assert.match((await page('fr')).text, /Ce lien n’existe pas ou n’est plus actif\./);
    assert.match((await page('es')).text, /Este enlace no existe o ya no está activo\./);
  });

  test('GET / is a page about hop, with the security headers; no link is listed', async () => {
    const link = await create({ destination: 'https://example.com/secret-listing' });
    for (const accept of [BROWSER_ACCEPT, 'application/json']) {
      const response = await server.request('GET', '/', { key: null, headers: { accept } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/);
      assert.match(response.text, /<h1>hop<\/h1>/);
      assert.match(response.text, /link shortener/);
      assert.ok(!response.text.includes(link.code), 'no link is shown');
      assert.ok(!response.text.includes('example.com'), 'no destination is shown');
      assertPageSecurityHeaders(response.headers, '/');
    }
    const german = await server.request('GET', '/?utm=x', {
      key: null,
      headers: { 'accept-language': 'de' },
    });
    assert.match(german.text, /Linkverkürzer/);
    const head = await server.request('HEAD', '/', { key: null });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  test('GET /robots.txt keeps search engines out and lets link previews in', async () => {
    const response = await server.request('GET', '/robots.txt', { key: null, headers: BROWSER });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assertPageSecurityHeaders(response.headers, '/robots.txt');
    const lines = response.text.split('\n');
    const everyone = lines.indexOf('User-agent: *');
    assert.ok(everyone >= 0);
    assert.equal(lines[everyone + 1], 'Disallow: /');
    for (const agent of ['Twitterbot', 'Slackbot-LinkExpanding', 'facebookexternalhit']) {
      assert.ok(lines.includes(`User-agent: ${agent}`), agent);
    }
    assert.ok(lines.includes('Allow: /'));
    assert.ok(lines.includes('Disallow: /v1/'));
    assert.equal((await server.request('HEAD', '/robots.txt', { key: null })).status, 200);
  });

  test('/{code}/ redirects exactly like /{code}, and counts its click', async () => {
    const link = await create({ destination: 'https://example.com/slash', status_code: 307 });
    const person = { key: null, headers: { 'user-agent': DESKTOP } };
    const plain = await server.request('GET', `/${link.code}`, person);
    const slashed = await server.request('GET', `/${link.code}/?utm=1`, person);
    assert.equal(slashed.status, 307);
    assert.equal(slashed.headers.get('location'), plain.headers.get('location'));
    assert.equal(slashed.headers.get('cache-control'), plain.headers.get('cache-control'));
    await settleClicks(server);
    const counted = await server.request('GET', `/v1/links/${link.id}`);
    assert.equal(counted.json.clicks, 2);

    // Only one trailing slash after a code: any other slash is no code.
    for (const path of [
      `//${link.code}`,
      `/${link.code}//`,
      `/${link.code}/x`,
      `/x/${link.code}/`,
    ]) {
      const response = await server.request('GET', path, { key: null });
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('location'), null, path);
    }
    // Our own routes with a slash are still ours.
    const admin = await server.request('GET', '/admin/', { key: null, headers: BROWSER });
    assert.equal(admin.headers.get('location'), null);
    // The console's page, or (not built here) the console's own word that it is not built.
    assert.ok(admin.status === 200 || /console is not built/.test(admin.text), admin.text);
    const v1 = await server.request('GET', '/v1/links/', {});
    assert.equal(v1.headers.get('location'), null);
    assert.notEqual(v1.status, 307);
  });
});

describe('HOP_ROOT_REDIRECT', () => {
  test('GET / is a 302 to it, with the security headers', async () => {
    const server = await startTestServer({ HOP_ROOT_REDIRECT: 'https://example.com/about?a=1' });
    try {
      for (const method of ['GET', 'HEAD']) {
        const response = await server.request(method, '/', { key: null, headers: BROWSER });
        assert.equal(response.status, 302);
        assert.equal(response.headers.get('location'), 'https://example.com/about?a=1');
        assert.equal(response.headers.get('cache-control'), 'private, no-store');
        assertPageSecurityHeaders(response.headers, '/');
      }
      // Everything else is as without it.
      assert.equal((await server.request('GET', '/robots.txt', { key: null })).status, 200);
    } finally {
      await server.close();
    }
  });
});

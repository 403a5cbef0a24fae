import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createLink } from '../support/create-link.js';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';
import { DESKTOP } from '../support/user-agents.js';

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const X = 'Twitterbot/1.0';

/** The `content` of the meta tag `key` names (property= or name=), or undefined. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
  return match?.[1];
}

describe('links that look right when shared (issue 22)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const visit = (path: string, userAgent: string, method = 'GET') =>
    server.request(method, path, { key: null, headers: { 'user-agent': userAgent } });
  const countsOf = async (id: string) => {
    await settleClicks(server);
    const json = (await server.request('GET', `/v1/links/${id}`)).json;
    return { clicks: json.clicks as number, bot_clicks: json.bot_clicks as number };
  };

  describe('crawlers', () => {
    test("Slack and X get the card with the link's title, counted as bots, not clicks", async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/spring?a=1&b=2',
        title: 'Spring <sale> & "more"',
      });
      for (const agent of [SLACK, X]) {
        const response = await visit(`/${link.code}`, agent);
        assert.equal(response.status, 200, agent);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
        assert.equal(response.headers.get('x-robots-tag'), 'noindex');
        assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
        const html = response.text;
        const title = 'Spring &lt;sale&gt; &amp; &quot;more&quot;';
        assert.equal(metaOf(html, 'og:title'), title);
        assert.equal(metaOf(html, 'twitter:title'), title);
        assert.equal(metaOf(html, 'twitter:card'), 'summary');
        assert.equal(metaOf(html, 'og:url'), `${TEST_PUBLIC_URL}/${link.code}`);
        assert.equal(metaOf(html, 'og:image'), undefined);
        assert.ok(html.includes('<a href="https://example.com/spring?a=1&amp;b=2">'), html);
      }
      assert.deepEqual(await countsOf(link.id), { clicks: 0, bot_clicks: 2 });
    });

    test('a browser gets the redirect, with X-Robots-Tag: noindex, counted as a click', async () => {
      const link = await createLink(server, { destination: 'https://example.com/people' });
      const response = await visit(`/${link.code}`, DESKTOP);
      assert.equal(response.status, 302);
      assert.equal(response.headers.get('location'), 'https://example.com/people');
      assert.equal(response.headers.get('x-robots-tag'), 'noindex');
      assert.equal((await visit(`/${link.code}`, X, 'HEAD')).status, 302, 'HEAD: no card');
      assert.deepEqual(await countsOf(link.id), { clicks: 1, bot_clicks: 0 });
    });

    test('under heavy shedding a crawler gets the redirect, and the + page a 503', async (t) => {
      const link = await createLink(server, { destination: 'https://example.com/busy' });
      const { shedder } = server.runtime.appDeps.protection;
      // Level 2 (SPEC §7): as many requests in flight as an overload would hold.
      shedder.inFlight += 1_000_000_000;
      t.after(() => {
        shedder.inFlight -= 1_000_000_000;
      });
      const crawler = await visit(`/${link.code}`, SLACK);
      assert.equal(crawler.status, 302, 'no read for a card: the redirect from memory');
      assert.equal(crawler.headers.get('location'), 'https://example.com/busy');
      assertProblem(await visit(`/${link.code}+`, DESKTOP), 503, 'overloaded');
    });

    test('a disabled link is the one 404 to crawlers too', async () => {
      const link = await createLink(server, { destination: 'https://example.com/gone' });
      assert.equal((await server.request('POST', `/v1/links/${link.id}/disable`)).status, 200);
      const crawler = await visit(`/${link.code}`, SLACK);
      const unknown = await visit('/nosuchcode1', SLACK);
      assert.equal(crawler.status, 404);
      assert.equal(crawler.text, unknown.text);
    });

    test('a password link shows its crawler the form, not a card', async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/secret',
        title: 'Secret',
        password: 'open sesame',
      });
      const response = await visit(`/${link.code}`, SLACK);
      assert.equal(response.status, 200);
      assert.equal(metaOf(response.text, 'og:title'), undefined);
      assert.ok(!response.text.includes('example.com/secret'));
    });
  });

  describe('preview and crawlable', () => {
    const card = {
      title: 'Spring sale',
      description: 'Up to 40% off <everything>',
      image: 'https://cdn.example.com/card.png',
    };

    test("the card shows the link's preview; null removes it and the title is back", async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/sale',
        title: 'Internal name',
        preview: card,
      });
      const json = (await server.request('GET', `/v1/links/${link.id}`)).json;
      assert.deepEqual(json.preview, card);
      assert.equal(json.crawlable, false);

      const html = (await visit(`/${link.code}`, X)).text;
      assert.equal(metaOf(html, 'og:title'), 'Spring sale');
      assert.equal(metaOf(html, 'twitter:title'), 'Spring sale');
      assert.equal(metaOf(html, 'og:description'), 'Up to 40% off &lt;everything&gt;');
      assert.equal(metaOf(html, 'twitter:description'), 'Up to 40% off &lt;everything&gt;');
      assert.equal(metaOf(html, 'og:image'), card.image);
      assert.equal(metaOf(html, 'twitter:image'), card.image);
      assert.equal(metaOf(html, 'twitter:card'), 'summary_large_image');

      const patched = await server.request('PATCH', `/v1/links/${link.id}`, {
        body: { preview: null },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.preview, null);
      const after = (await visit(`/${link.code}`, SLACK)).text;
      assert.equal(metaOf(after, 'og:title'), 'Internal name');
      assert.equal(metaOf(after, 'og:image'), undefined);
    });

    test('a crawlable link has no noindex, on its redirect or its card', async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/indexed',
        crawlable: true,
      });
      const redirect = await visit(`/${link.code}`, DESKTOP);
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get('x-robots-tag'), null);
      const google = await visit(
        `/${link.code}`,
        'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      );
      assert.equal(google.status, 200);
      assert.equal(google.headers.get('x-robots-tag'), null);
      assert.ok(!google.text.includes('noindex'));

      const patched = await server.request('PATCH', `/v1/links/${link.id}`, {
        body: { crawlable: false },
      });
      assert.equal(patched.json.crawlable, false);
      assert.equal((await visit(`/${link.code}`, DESKTOP)).headers.get('x-robots-tag'), 'noindex');
    });

    test('robots.txt allows exactly the crawlable links, refreshed within a minute', async () => {
      const open = await createLink(server, {
        destination: 'https://example.com/o',
        crawlable: true,
      });
      const closed = await createLink(server, { destination: 'https://example.com/c' });
      const robots = async () => {
        const response = await server.request('GET', '/robots.txt', { key: null });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
        return response.text.split('\n');
      };
      const lines = await robots();
      const everyone = lines.indexOf('User-agent: *');
      assert.equal(lines[everyone + 1], 'Disallow: /');
      assert.ok(lines.includes(`Allow: /${open.code}$`));
      assert.ok(!lines.some((line) => line.includes(closed.code)));

      const later = await createLink(server, {
        destination: 'https://example.com/l',
        crawlable: true,
      });
      assert.ok(!(await robots()).includes(`Allow: /${later.code}$`), 'kept a minute');
      server.clock.advance(61_000);
      assert.ok((await robots()).includes(`Allow: /${later.code}$`));
    });

    test('bad preview and crawlable fields are 422s naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ preview: { title: 'x'.repeat(201) } }, 'preview.title'],
        [{ preview: { description: 'x'.repeat(1001) } }, 'preview.description'],
        [{ preview: { image: 'javascript:alert(1)' } }, 'preview.image'],
        [{ preview: { image: 'http://10.0.0.1/card.png' } }, 'preview.image'],
        [{ preview: { image: '/card.png' } }, 'preview.image'],
        [{ preview: { title: 7 } }, 'preview.title'],
        [{ preview: { colour: 'red' } }, 'preview.colour'],
        [{ preview: 'a card' }, 'preview'],
        [{ crawlable: 'yes' }, 'crawlable'],
      ];
      const link = await createLink(server, { destination: 'https://example.com/bad' });
      for (const [fields, field] of cases) {
        const created = await server.request('POST', '/v1/links', {
          body: { destination: 'https://example.com/bad', ...(fields as object) },
        });
        assertProblem(created, 422, 'invalid-request');
        assert.deepEqual(
          created.json.errors.map((error: { field: string }) => error.field),
          [field],
          JSON.stringify(fields),
        );
        const patched = await server.request('PATCH', `/v1/links/${link.id}`, { body: fields });
        assertProblem(patched, 422, 'invalid-request');
        assert.deepEqual(
          patched.json.errors.map((error: { field: string }) => error.field),
          [field],
        );
      }
    });
  });

  describe('on another domain', () => {
    const host = 'go.acme.test';
    /** A GET with this Host (fetch may not set one). */
    const onDomain = (path: string, userAgent: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
        (resolve, reject) => {
          const url = new URL(path, server.url);
          const request = httpRequest(url, { headers: { host, 'user-agent': userAgent } });
          request.on('response', (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => {
              resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
            });
          });
          request.on('error', reject);
          request.end();
        },
      );

    test("robots.txt, the card and the + page are the Host's domain's", async () => {
      const { runtime } = server;
      await runtime.store.domains.insertDomain({
        host,
        rootRedirect: null,
        notFoundRedirect: 'https://acme.example/missing',
        https: true,
        createdAt: server.clock.now(),
        updatedAt: server.clock.now(),
      });
      await runtime.domainRoutes.reload();
      const link = await createLink(server, {
        destination: 'https://acme.example/spring',
        domain: host,
        crawlable: true,
        preview: { title: 'Acme spring' },
      });
      const elsewhere = await createLink(server, {
        destination: 'https://example.com/default',
        crawlable: true,
      });
      server.clock.advance(61_000);

      const robots = (await onDomain('/robots.txt', DESKTOP)).text.split('\n');
      assert.ok(robots.includes(`Allow: /${link.code}$`));
      assert.ok(!robots.includes(`Allow: /${elsewhere.code}$`));
      const defaultRobots = (await server.request('GET', '/robots.txt', { key: null })).text;
      assert.ok(defaultRobots.includes(`Allow: /${elsewhere.code}$`));
      assert.ok(!defaultRobots.includes(`Allow: /${link.code}$`));

      const shortUrl = `https://${host}/${link.code}`;
      const card = await onDomain(`/${link.code}`, SLACK);
      assert.equal(card.status, 200);
      assert.equal(metaOf(card.text, 'og:title'), 'Acme spring');
      assert.equal(metaOf(card.text, 'og:url'), shortUrl);
      const page = await onDomain(`/${link.code}+`, DESKTOP);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(`aria-label="QR code of ${shortUrl}"`));
      // A miss on the domain answers as its redirects' misses do: its not-found redirect.
      const miss = await onDomain('/nosuchcode4+', DESKTOP);
      assert.equal(miss.status, 302);
      assert.equal(miss.headers['location'], 'https://acme.example/missing');
      assert.equal(miss.headers['x-robots-tag'], 'noindex');
    });
  });

  describe('the + page', () => {
    test('shows where the link goes, its title and QR code; not counted', async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/check?x=<y>',
        title: 'Check me',
      });
      const response = await visit(`/${link.code}+`, DESKTOP);
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('x-robots-tag'), 'noindex');
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal(response.headers.get('cache-control'), 'private, no-store');
      const html = response.text;
      assert.ok(html.includes('<h1>Check me</h1>'), html);
      assert.ok(html.includes('https://example.com/check?x=%3Cy%3E'), html);
      assert.ok(html.includes('<svg role="img" aria-label="QR code of'), 'the QR code, inline');
      assert.ok(html.includes(`<a class="button" href="/${link.code}">Continue</a>`));
      // The page's one style is the one its CSP allows, by hash; it has no script.
      const style = /<style>(.*)<\/style>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(style).digest('base64');
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.ok(csp.includes(`style-src 'sha256-${hash}'`), csp);
      assert.ok(!html.includes('<script'));

      const german = await server.request('GET', `/${link.code}+`, {
        key: null,
        headers: { 'accept-language': 'de-AT, en;q=0.5' },
      });
      assert.equal(german.headers.get('content-language'), 'de');
      assert.ok(german.text.includes('>Weiter</a>'));
      assert.ok(german.text.includes('Dieser Link führt zu:'));

      const head = await visit(`/${link.code}+`, DESKTOP, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assert.equal(head.headers.get('content-length'), response.headers.get('content-length'));
      assert.deepEqual(await countsOf(link.id), { clicks: 0, bot_clicks: 0 });
    });

    test('a password link shows no destination and no title', async () => {
      const link = await createLink(server, {
        destination: 'https://example.com/hidden',
        title: 'Hidden title',
        password: 'open sesame',
      });
      const response = await visit(`/${link.code}+`, DESKTOP);
      assert.equal(response.status, 200);
      assert.ok(!response.text.includes('example.com/hidden'));
      assert.ok(!response.text.includes('Hidden title'));
      assert.ok(response.text.includes('protected by a password'));
    });

    test('a reserved word with a + is the one 404, whatever reaches Fastify', async () => {
      const unknown = await visit('/nosuchcode3+', DESKTOP);
      for (const path of ['/healthz+', '/Healthz+', '/v1+']) {
        const response = await visit(path, DESKTOP);
        assert.equal(response.status, 404, path);
        assert.equal(response.text, unknown.text, path);
      }
    });

    test('OpenAPI documents the page and the X-Robots-Tag of redirects', async () => {
      const spec = JSON.parse((await server.request('GET', '/openapi.json', { key: null })).text);
      assert.ok(spec.paths['/{code}+'].get.responses['200']);
      const redirect = spec.paths['/{code}'].get.responses;
      assert.ok(redirect['302'].headers['x-robots-tag']);
      assert.match(redirect['200'].description, /crawler/);
      const create = spec.paths['/v1/links'].post;
      const body = create.requestBody.content['application/json'].schema.properties;
      assert.ok(body.preview && body.crawlable);
      const json = create.responses['201'].content['application/json'].schema;
      assert.ok(json.required.includes('preview') && json.required.includes('crawlable'));
      const patch = spec.paths['/v1/links/{id}'].patch.requestBody.content['application/json'];
      assert.ok(patch.schema.properties.preview && patch.schema.properties.crawlable);
    });

    test('disabled, expired, deleted and unknown codes are the one 404', async () => {
      const disabled = await createLink(server, { destination: 'https://example.com/d' });
      await server.request('POST', `/v1/links/${disabled.id}/disable`);
      const deleted = await createLink(server, { destination: 'https://example.com/x' });
      await server.request('DELETE', `/v1/links/${deleted.id}`);
      const expired = await createLink(server, {
        destination: 'https://example.com/e',
        ttl_seconds: 60,
        fallback_url: 'https://example.com/fallback',
      });
      server.clock.advance(61_000);
      const unknown = await visit('/nosuchcode2+', DESKTOP);
      assert.equal(unknown.status, 404);
      for (const code of [disabled.code, deleted.code, expired.code, 'x!y', '']) {
        const response = await visit(`/${code}+`, DESKTOP);
        assert.equal(response.status, 404, code);
        assert.equal(response.text, unknown.text, code);
        assert.equal(response.headers.get('content-type'), unknown.headers.get('content-type'));
      }
    });
  });
});

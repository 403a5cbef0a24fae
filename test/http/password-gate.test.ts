import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { makeClientOf } from '../../src/http/client-address.js';
import { makeLinkPassCookies } from '../../src/http/link-pass-cookie.js';
import { makePasswordGate, type ProtectedLink } from '../../src/http/password-gate.js';
import { readPasswordForm } from '../../src/http/read-password-form.js';
import { systemClock } from '../../src/ports/clock.js';
import { hashLinkPassword } from '../../src/services/links/link-password.js';
import {
  makePasswordTries,
  PASSWORD_TRIES_RULE,
} from '../../src/services/protection/password-tries.js';
import { freePort } from '../support/free-port.js';

/**
 * Issue 21's password links, over real HTTP: the gate on a node:http server of its own, as
 * the redirect front will hold it. `serve` here is the redirect's stand-in: a 302 to one
 * fixed destination, carrying the Set-Cookie the gate hands it.
 */

const PASSWORD = 'open sesame';
const DESTINATION = 'https://example.com/secret';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('password links over HTTP', () => {
  const links = new Map<string, ProtectedLink>();
  let passwordHash = '';
  let server: Server;
  let base = '';
  let nextLink = 0;

  before(async () => {
    passwordHash = await hashLinkPassword(PASSWORD);
    const gate = makePasswordGate({
      cookies: makeLinkPassCookies(Buffer.alloc(32, 1)),
      tries: makePasswordTries(
        new MemoryRateLimiter(PASSWORD_TRIES_RULE, systemClock),
        PASSWORD_TRIES_RULE,
        systemClock,
      ),
      clientOf: makeClientOf([]),
      secureCookies: false,
      now: () => systemClock.now(),
    });
    server = createServer((request, response) => {
      const link = links.get((request.url ?? '').slice(1).split('?')[0] ?? '');
      if (link === undefined) {
        response.writeHead(404).end();
        return;
      }
      const serve = (setCookie: string | undefined) => {
        const headers: Record<string, string> = { location: DESTINATION, 'content-length': '0' };
        if (setCookie !== undefined) headers['set-cookie'] = setCookie;
        response.writeHead(302, headers).end();
      };
      if (request.method === 'POST') {
        readPasswordForm(request, response, (password) =>
          gate.admitForm(request, response, link, password, serve),
        );
      } else {
        gate.admit(request, response, link, serve);
      }
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** A password link of its own: each test's wrong tries are its own. */
  const makeLink = (): ProtectedLink => {
    const id = String(nextLink++).padStart(26, '0');
    const link = { linkId: id, code: `pw${nextLink}`, version: 1, passwordHash };
    links.set(link.code, link);
    return link;
  };
  const ask = (link: ProtectedLink, init: RequestInit = {}, query = '') =>
    fetch(`${base}/${link.code}${query}`, { redirect: 'manual', ...init });
  const post = (link: ProtectedLink, body: string, headers: Record<string, string> = FORM) =>
    ask(link, { method: 'POST', headers, body });
  const cookiePair = (response: Response) => {
    const setCookie = response.headers.get('set-cookie');
    assert.ok(setCookie !== null, 'a Set-Cookie header');
    return setCookie.slice(0, setCookie.indexOf(';'));
  };

  test('GET without a pass: the form, 200, never stored, strict CSP', async () => {
    const response = await ask(makeLink(), { headers: { accept: 'text/html' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    const html = await response.text();
    assert.match(html, /<input id="password" name="password" type="password"/);
  });

  test('HEAD answers like GET, without a body', async () => {
    const link = makeLink();
    const get = await ask(link);
    const head = await ask(link, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
    assert.equal(
      head.headers.get('content-security-policy'),
      get.headers.get('content-security-policy'),
    );
    assert.equal(await head.text(), '');
    const right = await ask(link, { method: 'HEAD', headers: { 'x-link-password': PASSWORD } });
    assert.equal(right.status, 302);
    const wrong = await ask(link, { method: 'HEAD', headers: { 'x-link-password': 'nope nope' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('content-type'), 'application/problem+json');
    assert.equal(await wrong.text(), '');
  });

  test('X-Link-Password: right is 302 with a pass, wrong is 401 problem+json', async () => {
    const link = makeLink();
    const right = await ask(link, { headers: { 'x-link-password': PASSWORD } });
    assert.equal(right.status, 302);
    assert.equal(right.headers.get('location'), DESTINATION);
    assert.match(right.headers.get('set-cookie') ?? '', /HttpOnly; SameSite=Lax/);
    const wrong = await ask(link, { headers: { 'x-link-password': 'open sesame!' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('content-type'), 'application/problem+json');
    assert.equal(wrong.headers.get('cache-control'), 'no-store');
    const problem = (await wrong.json()) as { type: string; status: number };
    assert.equal(problem.type, 'urn:hop:problem:wrong-password');
    assert.equal(problem.status, 401);
  });

  test('the form: right is 302 with a pass, and the pass alone lets the visitor through', async () => {
    const link = makeLink();
    const right = await post(link, `password=${encodeURIComponent(PASSWORD)}`);
    assert.equal(right.status, 302);
    assert.equal(right.headers.get('location'), DESTINATION);
    const setCookie = right.headers.get('set-cookie') ?? '';
    assert.match(setCookie, new RegExp(`^hop_pass_${link.linkId}=\\d+\\.[A-Za-z0-9_-]{43}; `));
    assert.match(
      setCookie,
      new RegExp(`Path=/${link.code}; Max-Age=86400; HttpOnly; SameSite=Lax$`),
    );
    const again = await ask(link, { headers: { cookie: cookiePair(right) } });
    assert.equal(again.status, 302);
    assert.equal(again.headers.get('location'), DESTINATION);
    assert.equal(again.headers.get('set-cookie'), null, 'a pass is not renewed');
  });

  test('the form: a wrong password is 401 with the form and a message', async () => {
    const link = makeLink();
    const wrong = await post(link, 'password=guess-one');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(wrong.headers.get('cache-control'), 'no-store');
    assert.equal(wrong.headers.get('set-cookie'), null);
    const html = await wrong.text();
    assert.match(html, /That password is not right\./);
    assert.match(html, /<form method="post">/);
    const empty = await post(link, 'other=1');
    assert.equal(empty.status, 401);
    assert.match(await empty.text(), /Enter the password\./);
  });

  test('six wrong tries: the sixth is 429 with Retry-After, and so is the right one then', async () => {
    const link = makeLink();
    for (let i = 1; i <= 5; i++) {
      assert.equal((await post(link, `password=guess-${i}`)).status, 401, `try ${i}`);
    }
    const sixth = await post(link, 'password=guess-6');
    assert.equal(sixth.status, 429);
    assert.ok(Number(sixth.headers.get('retry-after')) > 0);
    assert.equal(sixth.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await sixth.text(), /Too many tries; wait a few minutes\./);
    const right = await post(link, `password=${encodeURIComponent(PASSWORD)}`);
    assert.equal(right.status, 429);
    const header = await ask(link, { headers: { 'x-link-password': PASSWORD } });
    assert.equal(header.status, 429);
    assert.equal(header.headers.get('content-type'), 'application/problem+json');
    assert.ok(Number(header.headers.get('retry-after')) > 0);
    const problem = (await header.json()) as { type: string };
    assert.equal(problem.type, 'urn:hop:problem:rate-limited');
  });

  test('right passwords are never throttled', async () => {
    const link = makeLink();
    for (let i = 0; i < 12; i++) {
      const right = await ask(link, { headers: { 'x-link-password': PASSWORD } });
      assert.equal(right.status, 302, `request ${i + 1}`);
    }
  });

  test('a new version of the link ends every pass', async () => {
    const link = makeLink();
    const right = await post(link, `password=${encodeURIComponent(PASSWORD)}`);
    const cookie = cookiePair(right);
    assert.equal((await ask(link, { headers: { cookie } })).status, 302);
    links.set(link.code, { ...link, version: link.version + 1 });
    const after = await ask(link, { headers: { cookie } });
    assert.equal(after.status, 200, 'the form again');
  });

  test('the form keeps the query; a pass for one link opens no other', async () => {
    const link = makeLink();
    const other = makeLink();
    const right = await post(link, `password=${encodeURIComponent(PASSWORD)}`);
    const cookie = cookiePair(right).replace(link.linkId, other.linkId);
    assert.equal((await ask(other, { headers: { cookie } })).status, 200);
    assert.equal((await ask(link, { headers: { cookie: cookiePair(right) } }, '?a=1')).status, 302);
  });

  test('bodies that are not the form: 415 and 413 problem+json', async () => {
    const link = makeLink();
    const json = await post(link, JSON.stringify({ password: PASSWORD }), {
      'content-type': 'application/json',
    });
    assert.equal(json.status, 415);
    assert.equal(json.headers.get('content-type'), 'application/problem+json');
    const large = await post(link, `password=${'x'.repeat(5000)}`);
    assert.equal(large.status, 413);
    assert.equal(
      ((await large.json()) as { type: string }).type,
      'urn:hop:problem:payload-too-large',
    );
    const charset = await post(link, `password=${encodeURIComponent(PASSWORD)}`, {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    assert.equal(charset.status, 302);
  });

  test('a chunked body past the cap is 413 too, without reading it to its end', async () => {
    const link = makeLink();
    const status = await new Promise<number>((resolve, reject) => {
      const sending = request(
        `${base}/${link.code}`,
        { method: 'POST', headers: FORM },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sending.on('error', reject);
      // No Content-Length: node sends it chunked, and the cap is counted as it comes.
      sending.write(`password=${'y'.repeat(3000)}`);
      sending.write('y'.repeat(3000));
    });
    assert.equal(status, 413);
  });
});

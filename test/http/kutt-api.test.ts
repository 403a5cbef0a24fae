import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Kutt } from 'kutt';
import { settleClicks } from '../support/settle-clicks.js';
import { DESKTOP, IPHONE } from '../support/user-agents.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';

/** What the kutt client rejects with on a non-2xx answer (`API.node.js`). */
interface KuttClientError {
  message: string;
  cause: { status: number; data: unknown };
}

/** Asserts that `promise` rejects as the kutt client rejects: status and `{"error"}` body. */
async function assertKuttError(
  promise: Promise<unknown>,
  status: number,
  message: string | RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    const { cause, message: said } = error as KuttClientError;
    assert.equal(cause.status, status, `status of ${JSON.stringify(cause.data)}`);
    const body = cause.data as { error: unknown };
    assert.deepEqual(Object.keys(body), ['error']);
    if (typeof message === 'string') assert.equal(body.error, message);
    else assert.match(String(body.error), message);
    assert.equal(said, body.error);
    return true;
  });
}

/** The Link object's keys, as Kutt's `utils.sanitize.link` gives them (and no more). */
const LINK_KEYS = [
  'address',
  'banned',
  'created_at',
  'description',
  'domain',
  'expire_in',
  'id',
  'link',
  'password',
  'target',
  'updated_at',
  'visit_count',
];

/**
 * Kutt v2 (issue 24, ADR 0134) driven by the `kutt@3.0.2` npm client, as its README shows:
 * `new Kutt().set('api', base + '/api/v2').set('key', key)`, against a real hop on SQLite.
 */
describe('Kutt v2 API through the kutt client (issue 24)', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  let alice: Kutt;
  let bob: Kutt;
  const kuttWith = (key: string) =>
    new Kutt().set('api', `${server.url}/api/v2`).set('key', key).set('timeout', 10_000);

  before(async () => {
    server = await startTestServer({ HOP_COUNTRY_HEADER: 'cf-ipcountry' });
    aliceKey = await server.ownerKey('kutt-alice');
    bobKey = await server.ownerKey('kutt-bob');
    alice = kuttWith(aliceKey);
    bob = kuttWith(bobKey);
  });
  after(async () => {
    await server.close();
  });

  test('create with customurl, password, expire_in and description: the Link as Kutt shows it', async () => {
    const created = await alice.links().create({
      target: 'https://example.com/kutt/full',
      customurl: 'kutt-full',
      password: 'sesame',
      expire_in: '2 hours',
      description: 'A described link',
    });
    assert.deepEqual(Object.keys(created).sort(), LINK_KEYS);
    assert.equal(created.address, 'kutt-full');
    assert.equal(created.link, `${TEST_PUBLIC_URL}/kutt-full`);
    assert.equal(created.target, 'https://example.com/kutt/full');
    assert.equal(created.password, true);
    assert.equal(created.description, 'A described link');
    assert.equal(created.banned, false);
    assert.equal(created.visit_count, 0);
    assert.equal((created as unknown as { domain: unknown }).domain, null);
    // The client revives the timestamps into Dates; expire_in is the absolute time.
    assert.ok(created.created_at instanceof Date);
    const now = server.clock.now();
    assert.equal(
      (created as unknown as { expire_in: string }).expire_in,
      new Date(now + 2 * 3_600_000).toISOString(),
    );

    // One link: /v1 sees the same id, the title, the password and the expiry.
    const v1 = await server.request('GET', `/v1/links/${created.id}`, { key: aliceKey });
    assert.equal(v1.status, 200);
    assert.equal(v1.json.code, 'kutt-full');
    assert.equal(v1.json.title, 'A described link');
    assert.equal(v1.json.password_protected, true);
    assert.equal(v1.json.expires_at, new Date(now + 2 * 3_600_000).toISOString());
    // The password gate stands in front of the redirect.
    const visit = await fetch(`${server.url}/kutt-full`, { redirect: 'manual' });
    assert.notEqual(visit.status, 302);
    await visit.arrayBuffer();
  });

  test('create answers 201 with a generated code and a target without a scheme taken as http', async () => {
    const response = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { 'x-api-key': aliceKey, 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'example.com/no-scheme' }),
    });
    assert.equal(response.status, 201);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { target: string; address: string; link: string };
    assert.equal(body.target, 'http://example.com/no-scheme');
    assert.equal(body.link, `${TEST_PUBLIC_URL}/${body.address}`);
  });

  test('reuse gives back the caller’s own link to the same target with 200; not another owner’s', async () => {
    const first = await alice.links().create({ target: 'https://example.com/kutt/reused' });
    const again = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { 'x-api-key': aliceKey, 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'https://example.com/kutt/reused', reuse: true }),
    });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { id: string }).id, first.id);
    // Without reuse, a second link; Bob's reuse never finds Alice's.
    const second = await alice.links().create({ target: 'https://example.com/kutt/reused' });
    assert.notEqual(second.id, first.id);
    const bobs = await bob
      .links()
      .create({ target: 'https://example.com/kutt/reused', reuse: true });
    assert.notEqual(bobs.id, first.id);
    assert.notEqual(bobs.id, second.id);
  });

  test("ShareX's request shape: {target, password, customurl: null, reuse, domain}, reading only link", async () => {
    const response = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { 'X-API-KEY': aliceKey, 'Content-Type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({
        target: 'https://example.com/sharex',
        password: '',
        customurl: null,
        reuse: false,
        domain: '',
      }),
    });
    assert.equal(response.status, 201);
    const { link } = (await response.json()) as { link: string };
    assert.match(link, new RegExp(`^${TEST_PUBLIC_URL}/[0-9A-Za-z]{7}$`));
    const code = link.slice(TEST_PUBLIC_URL.length + 1);
    const redirect = await fetch(`${server.url}/${code}`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://example.com/sharex');
  });

  test('list pages by skip and limit with the total, newest first, and searches', async () => {
    const carolKey = await server.ownerKey('kutt-carol');
    const carol = kuttWith(carolKey);
    const made = [];
    for (let index = 0; index < 5; index++) {
      made.push(
        await carol.links().create({
          target: `https://example.com/carol/${index}`,
          ...(index === 3 ? { description: 'needle in the list' } : {}),
        }),
      );
    }
    const first = await carol.links().list({ limit: 2 });
    assert.equal(first.total, 5);
    assert.equal(first.limit, 2);
    assert.equal(first.skip, 0);
    assert.deepEqual(
      first.data.map((link) => link.id),
      [made[4]?.id, made[3]?.id],
    );
    const last = await carol.links().list({ skip: 4, limit: 2 });
    assert.equal(last.total, 5);
    assert.deepEqual(
      last.data.map((link) => link.id),
      [made[0]?.id],
    );
    const beyond = await carol.links().list({ skip: 10 });
    assert.equal(beyond.total, 5);
    assert.deepEqual(beyond.data, []);
    // The client's defaults; Kutt's cap of 50.
    const defaults = await carol.links().list();
    assert.equal(defaults.limit, 10);
    const capped = await carol.links().list({ limit: 500 });
    assert.equal(capped.limit, 50);
    // search: description (hop's title), and target.
    const searched = await fetch(`${server.url}/api/v2/links?search=needle`, {
      headers: { 'x-api-key': carolKey },
    });
    assert.equal(searched.status, 200);
    const found = (await searched.json()) as { total: number; data: { id: string }[] };
    assert.equal(found.total, 1);
    assert.equal(found.data[0]?.id, made[3]?.id);
  });

  test("an owner's key never sees another owner's links: list, update, remove and stats", async () => {
    const mine = await alice.links().create({ target: 'https://example.com/alice/private' });
    const bobList = await bob.links().list({ limit: 50 });
    assert.ok(bobList.data.every((link) => link.id !== mine.id));
    await assertKuttError(
      bob.links().update(mine.id, { target: 'https://example.com/bob', address: mine.address }),
      404,
      'Link was not found.',
    );
    await assertKuttError(bob.links().remove(mine.id), 404, 'Could not find the link.');
    const stats = await fetch(`${server.url}/api/v2/links/${mine.id}/stats`, {
      headers: { 'x-api-key': bobKey },
    });
    assert.equal(stats.status, 404);
    assert.deepEqual(await stats.json(), { error: 'Link could not be found.' });
    // Alice's link is as it was.
    const v1 = await server.request('GET', `/v1/links/${mine.id}`, { key: aliceKey });
    assert.equal(v1.json.destination, 'https://example.com/alice/private');
    // An admin sees every owner's links with all=true, only its own without.
    const admin = kuttWith(server.adminKey);
    const all = await admin.links().list({ limit: 50, all: true });
    assert.ok(all.total > 0);
    assert.ok(all.data.some((link) => link.id === mine.id) || all.total > 50);
    const own = await admin.links().list({ limit: 50 });
    assert.ok(own.data.every((link) => link.id !== mine.id));
  });

  test('update changes target, description, expiry and password; /v1 shows the edit', async () => {
    const made = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: { destination: 'https://example.com/v1/made', alias: 'kutt-edit', title: 'Before' },
    });
    assert.equal(made.status, 201, made.text);
    const id = made.json.id as string;
    const updated = await alice.links().update(id, {
      target: 'https://example.com/kutt/edited',
      address: 'kutt-edit',
      description: 'After',
      expire_in: '3 days',
    });
    assert.equal(updated.id, id);
    assert.equal(updated.target, 'https://example.com/kutt/edited');
    assert.equal(updated.description, 'After');
    const v1 = await server.request('GET', `/v1/links/${id}`, { key: aliceKey });
    assert.equal(v1.json.destination, 'https://example.com/kutt/edited');
    assert.equal(v1.json.title, 'After');
    assert.equal(v1.json.expires_at, new Date(server.clock.now() + 3 * 86_400_000).toISOString());
    assert.equal(v1.json.version, 2);

    // A password set, kept by an edit that leaves it out, removed by "".
    const locked = await alice.links().update(id, { password: 'open sesame' } as never);
    assert.equal(locked.password, true);
    const kept = await alice
      .links()
      .update(id, { target: 'https://example.com/kutt/kept' } as never);
    assert.equal(kept.password, true);
    const unlocked = await alice.links().update(id, { password: '' } as never);
    assert.equal(unlocked.password, false);
    const redirect = await fetch(`${server.url}/kutt-edit`, { redirect: 'manual' });
    assert.equal(redirect.headers.get('location'), 'https://example.com/kutt/kept');
  });

  test('update refusals: nothing changed, another address, bad target, bad expire_in', async () => {
    const link = await alice.links().create({
      target: 'https://example.com/kutt/refusals',
      customurl: 'kutt-refusals',
    });
    await assertKuttError(
      alice.links().update(link.id, { target: link.target, address: link.address }),
      400,
      'Should at least update one field.',
    );
    await assertKuttError(
      alice.links().update(link.id, { target: link.target, address: 'kutt-renamed' }),
      400,
      /^hop never changes a link's address/,
    );
    await assertKuttError(
      alice.links().update(link.id, { target: 'ftp://example.com/file', address: link.address }),
      400,
      /^URL is not valid\./,
    );
    await assertKuttError(
      alice
        .links()
        .update(link.id, { target: link.target, address: link.address, expire_in: 'soon' }),
      400,
      'Expire format is invalid. Valid examples: 1m, 8h, 42 days.',
    );
    // Nothing of it was written.
    const v1 = await server.request('GET', `/v1/links/${link.id}`, { key: aliceKey });
    assert.equal(v1.json.version, 1);
  });

  test('remove answers Kutt’s message and the link is gone for /v1 and the redirect', async () => {
    const link = await alice.links().create({
      target: 'https://example.com/kutt/removed',
      customurl: 'kutt-removed',
    });
    assert.equal(await alice.links().remove(link.id), 'Link has been deleted successfully.');
    assert.equal(
      (await server.request('GET', `/v1/links/${link.id}`, { key: aliceKey })).status,
      404,
    );
    const redirect = await fetch(`${server.url}/kutt-removed`, { redirect: 'manual' });
    assert.equal(redirect.status, 404);
    await redirect.arrayBuffer();
    await assertKuttError(alice.links().remove(link.id), 404, 'Could not find the link.');
  });

  test("the client's stats(id) sends DELETE …/stats: a 404, and the link is still there", async () => {
    const link = await alice.links().create({ target: 'https://example.com/kutt/stats-bug' });
    await assertKuttError(alice.links().stats(link.id), 404, /GET \/api\/v2\/links\/\{id\}\/stats/);
    const v1 = await server.request('GET', `/v1/links/${link.id}`, { key: aliceKey });
    assert.equal(v1.status, 200);
    assert.equal(v1.json.state, 'active');
  });

  test('stats after real redirects: the periods, views, breakdowns and visit_count', async () => {
    const link = await alice.links().create({ target: 'https://example.com/kutt/visited' });
    const click = async (headers: Record<string, string>) => {
      const response = await fetch(`${server.url}/${link.address}`, {
        redirect: 'manual',
        headers,
      });
      assert.equal(response.status, 302);
      await response.arrayBuffer();
    };
    for (let index = 0; index < 2; index++) {
      await click({
        'user-agent': IPHONE,
        referer: 'https://news.example.com/a',
        'cf-ipcountry': 'de',
      });
    }
    await click({ 'user-agent': DESKTOP, 'cf-ipcountry': 'fr' });
    await settleClicks(server);

    const response = await fetch(`${server.url}/api/v2/links/${link.id}/stats`, {
      headers: { 'x-api-key': aliceKey },
    });
    assert.equal(response.status, 200);
    const stats = (await response.json()) as Record<string, any>;
    assert.deepEqual(Object.keys(stats).slice(0, 5), [
      'lastYear',
      'lastDay',
      'lastMonth',
      'lastWeek',
      'updatedAt',
    ]);
    assert.equal(stats['id'], link.id);
    assert.equal(stats['visit_count'], 3);
    const lengths = { lastDay: 24, lastWeek: 7, lastMonth: 30, lastYear: 12 };
    for (const [period, length] of Object.entries(lengths)) {
      const { views, total, stats: breakdown } = stats[period];
      assert.equal(views.length, length, period);
      assert.equal(total, 3, period);
      // The clicks are this hour's, this day's, this month's: the newest entry.
      assert.equal(views[length - 1], 3, period);
      assert.deepEqual(
        breakdown.browser.slice(0, 2),
        [
          { name: 'chrome', value: 1 },
          { name: 'safari', value: 2 },
        ].sort((a, b) => b.value - a.value),
      );
      assert.equal(breakdown.browser.length, 7);
      assert.equal(breakdown.os.length, 6);
      assert.deepEqual(breakdown.os.slice(0, 2), [
        { name: 'ios', value: 2 },
        { name: 'windows', value: 1 },
      ]);
      assert.deepEqual(breakdown.country, [
        { name: 'DE', value: 2 },
        { name: 'FR', value: 1 },
      ]);
      assert.deepEqual(breakdown.referrer[0], { name: 'news.example.com', value: 2 });
    }
    const listed = await alice.links().list({ limit: 50 });
    assert.equal(listed.data.find((item) => item.id === link.id)?.visit_count, 3);
  });

  test('health is OK as text/html, with or without a key', async () => {
    assert.equal(await alice.health().check(), true);
    const response = await fetch(`${server.url}/api/v2/health`, {
      headers: { accept: 'text/html' },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(await response.text(), 'OK');
  });

  test('users: the key sent, the owner as the email, the domains', async () => {
    const info = (await alice.users().info()) as unknown as Record<string, unknown>;
    assert.deepEqual(info, { apikey: aliceKey, email: 'kutt-alice', domains: [] });
  });

  test('a missing or unknown key is 401 {"error":"Unauthorized."} on every keyed route', async () => {
    const nobody = kuttWith('');
    const stranger = kuttWith('hop_not_a_key_at_all');
    for (const client of [nobody, stranger]) {
      await assertKuttError(client.links().list(), 401, 'Unauthorized.');
      await assertKuttError(
        client.links().create({ target: 'https://example.com' }),
        401,
        'Unauthorized.',
      );
      await assertKuttError(client.users().info(), 401, 'Unauthorized.');
    }
    // An HTML-preferring browser still gets JSON.
    const response = await fetch(`${server.url}/api/v2/links`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: 'Unauthorized.' });
  });

  test('create refusals as the client sees them', async () => {
    await alice.links().create({ target: 'https://example.com/taken', customurl: 'kutt-taken' });
    await assertKuttError(
      bob.links().create({ target: 'https://example.com/again', customurl: 'kutt-taken' }),
      409,
      'Custom URL is already in use.',
    );
    await assertKuttError(alice.links().create({} as never), 400, 'Target is missing.');
    await assertKuttError(
      alice.links().create({ target: 'javascript:alert(1)' }),
      400,
      /^URL is not valid\./,
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', customurl: 'bad code!' }),
      400,
      /^Custom URL is not valid\./,
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', expire_in: 'tomorrow' }),
      400,
      'Expire format is invalid. Valid examples: 1m, 8h, 42 days.',
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', expire_in: '30 seconds' }),
      400,
      'Expire time should be more than 1 minute.',
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', password: 'ab' }),
      400,
      'Password length must be between 4 and 64.',
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', reuse: 'maybe' as never }),
      400,
      'Reuse must be boolean.',
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', domain: 'not-mine.example' }),
      400,
      "You can't use this domain.",
    );
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', description: 'x'.repeat(201) }),
      400,
      /^Description: /,
    );
  });

  test('expire_in is read as Kutt reads it (the ms package) and kept as an absolute time', async () => {
    const minute = 60_000;
    const day = 24 * 60 * minute;
    const cases: [string, number][] = [
      ['1m', minute],
      ['90 s', 1.5 * minute],
      ['1.5h', 90 * minute],
      ['8H', 8 * 60 * minute],
      ['42 days', 42 * day],
      ['2 weeks', 14 * day],
      ['1y', 365.25 * day],
      ['  3 minutes  ', 3 * minute],
    ];
    for (const [text, ms] of cases) {
      const link = await alice
        .links()
        .create({ target: 'https://example.com/ttl', expire_in: text });
      const expected = new Date(server.clock.now() + ms).toISOString();
      assert.equal((link as unknown as { expire_in: string }).expire_in, expected, text);
      const v1 = await server.request('GET', `/v1/links/${link.id}`, { key: aliceKey });
      assert.equal(v1.json.expires_at, expected, text);
    }
    const refused: [unknown, string][] = [
      ['-5m', 'Expire time should be more than 1 minute.'],
      ['100', 'Expire time should be more than 1 minute.'],
      ['59 seconds', 'Expire time should be more than 1 minute.'],
      ['5 fortnights', 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.'],
      ['0', 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.'],
      [42, 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.'],
      ['1'.repeat(101), 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.'],
    ];
    for (const [value, message] of refused) {
      await assertKuttError(
        alice.links().create({ target: 'https://example.com/ttl', expire_in: value as string }),
        400,
        message,
      );
    }
  });

  test('bad and unknown ids: 400 "ID is invalid." and 404', async () => {
    await assertKuttError(alice.links().remove('abc123'), 400, 'ID is invalid.');
    await assertKuttError(
      alice.links().update('8a8d4b57-1c33-4bb1-b2a5-4f0c3a1d2e9f', {
        target: 'https://example.com',
        address: 'x',
      }),
      400,
      'ID is invalid.',
    );
    await assertKuttError(
      alice.links().remove('01JAAAAAAAAAAAAAAAAAAAAAAA'),
      404,
      'Could not find the link.',
    );
    const stats = await fetch(`${server.url}/api/v2/links/nope/stats`, {
      headers: { 'x-api-key': aliceKey },
    });
    assert.equal(stats.status, 400);
    assert.deepEqual(await stats.json(), { error: 'ID is invalid.' });
  });

  test('a key without the scope gets 403 in Kutt’s shape, and nothing is written', async () => {
    const issued = await server.request('POST', '/v1/keys', {
      body: { owner: 'kutt-alice', scopes: ['links:read'] },
    });
    assert.equal(issued.status, 201, issued.text);
    const reader = kuttWith(issued.json.key as string);
    const before = await reader.links().list();
    await assertKuttError(
      reader.links().create({ target: 'https://example.com/reader' }),
      403,
      'This key lacks the scope "links:write".',
    );
    const mine = before.data[0];
    assert.ok(mine);
    await assertKuttError(
      reader.links().remove(mine.id),
      403,
      'This key lacks the scope "links:write".',
    );
    const stats = await fetch(`${server.url}/api/v2/links/${mine.id}/stats`, {
      headers: { 'x-api-key': issued.json.key as string },
    });
    assert.equal(stats.status, 403);
    assert.equal(
      ((await stats.json()) as { error: string }).error,
      'This key lacks the scope "analytics:read".',
    );
    assert.equal((await reader.links().list()).total, before.total);
  });

  test('malformed requests and routes hop does not serve answer Kutt-shaped 4xx, never HTML', async () => {
    const send = (
      method: string,
      path: string,
      init: { body?: string; headers?: Record<string, string> } = {},
    ) =>
      fetch(`${server.url}/api/v2${path}`, {
        method,
        body: init.body ?? null,
        headers: { 'x-api-key': aliceKey, accept: 'text/html', ...init.headers },
      });
    const cases: [Response, number][] = [
      [
        await send('POST', '/links', {
          body: '{"target":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      [
        await send('POST', '/links', {
          body: 'target=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
      ],
      [
        await send('POST', '/links', {
          body: '[1,2]',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      [await send('GET', '/links?limit=-1'), 400],
      [await send('GET', '/links?skip=1&skip=2'), 400],
      [
        await send('POST', '/domains', {
          body: '{"address":"x.example"}',
          headers: { 'content-type': 'application/json' },
        }),
        404,
      ],
      [await send('DELETE', '/domains/x'), 404],
      [await send('GET', '/links/admin'), 404],
      [await send('GET', '/users/admin'), 404],
      [await send('GET', '/nothing-here'), 404],
    ];
    for (const [response, status] of cases) {
      assert.equal(response.status, status, response.url);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { error: unknown };
      assert.equal(typeof body.error, 'string');
    }
  });

  test("a short domain: create on it, reuse within it, users lists it; a key kept off it can't use it", async () => {
    const host = 'kutt-short.example';
    const made = await server.request('POST', '/v1/domains', {
      body: { host, root_redirect: 'https://home.example/' },
    });
    assert.equal(made.status, 201, made.text);
    const link = await alice.links().create({
      target: 'https://example.com/on-domain',
      customurl: 'kutt-domain',
      domain: host.toUpperCase(),
    });
    assert.equal((link as unknown as { domain: string }).domain, host);
    assert.equal(link.link, `https://${host}/kutt-domain`);
    // reuse looks on the domain asked for: the default domain's twin is another link.
    const onDefault = await alice.links().create({
      target: 'https://example.com/on-domain',
      reuse: true,
    });
    assert.notEqual(onDefault.id, link.id);
    const reused = await alice.links().create({
      target: 'https://example.com/on-domain',
      reuse: true,
      domain: host,
    });
    assert.equal(reused.id, link.id);
    const info = (await alice.users().info()) as unknown as { domains: unknown[] };
    assert.deepEqual(info.domains, [
      {
        address: host,
        banned: false,
        // The client revives these into Dates.
        created_at: new Date(server.clock.now()),
        id: host,
        homepage: 'https://home.example/',
        updated_at: new Date(server.clock.now()),
      },
    ]);
    const kept = await server.request('POST', '/v1/keys', {
      body: { owner: 'kutt-alice', domains: [TEST_PUBLIC_URL.slice('http://'.length)] },
    });
    assert.equal(kept.status, 201, kept.text);
    const keptOff = kuttWith(kept.json.key as string);
    await assertKuttError(
      keptOff.links().create({ target: 'https://example.com/x', domain: host }),
      400,
      "You can't use this domain.",
    );
    assert.deepEqual(
      ((await keptOff.users().info()) as unknown as { domains: unknown[] }).domains,
      [],
    );
  });

  test('expire_in past HOP_MAX_TTL and a body past the size limit are 400 and 413', async () => {
    await assertKuttError(
      alice.links().create({ target: 'https://example.com', expire_in: '11 years' }),
      400,
      /^expire_in: lies beyond the maximum lifetime/,
    );
    const response = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { 'x-api-key': aliceKey, 'content-type': 'application/json' },
      body: JSON.stringify({ target: `https://example.com/${'x'.repeat(2_000_000)}` }),
    });
    assert.equal(response.status, 413);
    assert.equal(typeof ((await response.json()) as { error: unknown }).error, 'string');
  });

  test('a link made through /v1 and edited through Kutt shows the edit through /v1', async () => {
    const made = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: { destination: 'https://example.com/one/v1', alias: 'kutt-one' },
    });
    const id = made.json.id as string;
    const listed = await alice.links().list({ limit: 50 });
    assert.equal(listed.data.find((link) => link.id === id)?.address, 'kutt-one');
    await alice.links().update(id, { target: 'https://example.com/one/kutt', address: 'kutt-one' });
    const v1 = await server.request('GET', `/v1/links/${id}`, { key: aliceKey });
    assert.equal(v1.json.destination, 'https://example.com/one/kutt');
  });
});

describe('Kutt v2 API: the create rate limit (issue 24)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_CREATE_RATE: '1/m:2' });
  });
  after(async () => {
    await server.close();
  });

  test('past the limit a create is 429 with Retry-After and Kutt’s error body', async () => {
    const key = await server.ownerKey('kutt-busy');
    const kutt = new Kutt().set('api', `${server.url}/api/v2`).set('key', key);
    await kutt.links().create({ target: 'https://example.com/1' });
    await kutt.links().create({ target: 'https://example.com/2' });
    const response = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'https://example.com/3' }),
    });
    assert.equal(response.status, 429);
    assert.ok(Number(response.headers.get('retry-after')) > 0);
    assert.equal(typeof ((await response.json()) as { error: unknown }).error, 'string');
    await assertKuttError(kutt.links().create({ target: 'https://example.com/4' }), 429, /./);
  });
});

/**
 * Issue 24: hop speaks Shlink REST v3, driven from outside by Shlink's own client,
 * `@shlinkio/shlink-js-sdk@3.2.1`, exactly as its users drive it; the few calls the SDK
 * cannot make (a preflight, a malformed body, the v1/v2 aliases) are made with fetch.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sendClicks } from '../support/click-load.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The SDK's own .d.ts files import their siblings without extensions, which NodeNext
 * cannot follow, so the part of its client these tests use is typed here.
 */
interface ShortUrl {
  shortCode: string;
  shortUrl: string;
  longUrl: string;
  dateCreated: string;
  visitsSummary: { total: number; nonBots: number; bots: number };
  tags: string[];
  meta: { validSince: string | null; validUntil: string | null; maxVisits: number | null };
  domain: string | null;
  title?: string | null;
  crawlable?: boolean;
  forwardQuery?: boolean;
  hasRedirectRules?: boolean;
}
interface Pagination {
  currentPage: number;
  pagesCount: number;
  totalItems: number;
  itemsPerPage: number;
  itemsInCurrentPage: number;
}
interface Condition {
  type: string;
  matchKey: string | null;
  matchValue: string | null;
}
interface Rules {
  defaultLongUrl: string;
  redirectRules: { longUrl: string; priority: number; conditions: Condition[] }[];
}
interface Visit {
  referer: string;
  date: string;
  userAgent: string;
  potentialBot: boolean;
  visitLocation: { countryCode: string | null; countryName: string | null } | null;
}
type Id = { shortCode: string; domain?: string | null };
interface ShlinkClient {
  listShortUrls(
    params?: Record<string, unknown>,
  ): Promise<{ data: ShortUrl[]; pagination: Pagination }>;
  createShortUrl(data: Record<string, unknown>): Promise<ShortUrl>;
  getShortUrl(id: Id): Promise<ShortUrl>;
  updateShortUrl(id: Id, data: Record<string, unknown>): Promise<ShortUrl>;
  deleteShortUrl(id: Id): Promise<void>;
  getShortUrlVisits(
    id: Id,
    params?: Record<string, unknown>,
  ): Promise<{ data: Visit[]; pagination: Pagination }>;
  getVisitsOverview(): Promise<{
    nonOrphanVisits: { total: number; nonBots: number; bots: number };
    orphanVisits: { total: number };
  }>;
  listTags(): Promise<{ data: string[]; pagination: Pagination }>;
  tagsStats(): Promise<{
    data: {
      tag: string;
      shortUrlsCount: number;
      visitsSummary: { total: number; nonBots: number; bots: number };
    }[];
  }>;
  editTag(renaming: { oldName: string; newName: string }): Promise<unknown>;
  deleteTags(tags: string[]): Promise<unknown>;
  listDomains(): Promise<{
    data: { domain: string; isDefault: boolean; redirects: Record<string, string | null> }[];
    defaultRedirects: Record<string, string | null>;
  }>;
  getShortUrlRedirectRules(id: Id): Promise<Rules>;
  setShortUrlRedirectRules(
    id: Id,
    data: { redirectRules: { longUrl: string; conditions: Condition[] }[] },
  ): Promise<Rules>;
  health(): Promise<{ status: string; version: string }>;
  mercureInfo(): Promise<unknown>;
}
type ClientClass = new (http: unknown, server: { baseUrl: string; apiKey: string }) => ShlinkClient;
const { ShlinkApiClient } = (await import('@shlinkio/shlink-js-sdk')) as unknown as {
  ShlinkApiClient: ClientClass;
};
const { FetchHttpClient } = (await import('@shlinkio/shlink-js-sdk/fetch')) as unknown as {
  FetchHttpClient: new () => unknown;
};

const ERROR = 'https://shlink.io/api/error/';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** Asserts the SDK threw Shlink's problem object (it throws the parsed body itself). */
async function rejectsWith(
  call: Promise<unknown>,
  code: string,
  status: number,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  let thrown: unknown;
  try {
    await call;
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown !== undefined, `expected the ${code} problem`);
  const problem = thrown as Record<string, unknown>;
  assert.equal(problem['type'], `${ERROR}${code}`, JSON.stringify(problem));
  assert.equal(problem['status'], status);
  assert.equal(typeof problem['title'], 'string');
  assert.equal(typeof problem['detail'], 'string');
  for (const [name, value] of Object.entries(extra)) assert.deepEqual(problem[name], value, name);
  return problem;
}

describe('the Shlink REST API, through the Shlink SDK', () => {
  let server: TestServer;
  let admin: ShlinkClient;
  let alice: ShlinkClient;
  let aliceKey: string;
  const client = (apiKey: string) =>
    new ShlinkApiClient(new FetchHttpClient(), { baseUrl: server.url, apiKey });

  before(async () => {
    server = await startTestServer();
    admin = client(server.adminKey);
    aliceKey = await server.ownerKey('alice');
    alice = client(aliceKey);
  });
  after(async () => {
    await server.close();
  });

  test('create: a 200 with the ShortUrl; members the SDK drops take Shlink defaults', async () => {
    const made = await alice.createShortUrl({
      longUrl: 'https://example.com/docs',
      customSlug: 'sh-docs',
      tags: ['demo', 'docs'],
      title: 'Docs',
      maxVisits: 50,
      validUntil: '2030-01-01T00:00:00+00:00',
      crawlable: true,
    });
    assert.equal(made.shortCode, 'sh-docs');
    assert.equal(made.shortUrl, 'http://hop.test/sh-docs');
    assert.equal(made.longUrl, 'https://example.com/docs');
    assert.equal(made.domain, null);
    assert.deepEqual(made.tags, ['demo', 'docs']);
    assert.equal(made.title, 'Docs');
    assert.deepEqual(made.meta, {
      validSince: null,
      validUntil: '2030-01-01T00:00:00+00:00',
      maxVisits: 50,
    });
    assert.deepEqual(made.visitsSummary, { total: 0, nonBots: 0, bots: 0 });
    assert.equal(made.crawlable, true);
    assert.equal(made.hasRedirectRules, false);
    assert.match(made.dateCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

    // crawlable:false, forwardQuery:false, maxVisits:0 and title:'' never leave the SDK.
    const plain = await alice.createShortUrl({
      longUrl: 'https://example.com/plain',
      crawlable: false,
      forwardQuery: false,
      maxVisits: 0,
      title: '',
    });
    assert.match(plain.shortCode, /^[A-Za-z0-9_-]+$/);
    assert.equal(plain.crawlable, false);
    assert.equal(plain.forwardQuery, true, "Shlink's default when forwardQuery is not sent");
    assert.equal(plain.meta.maxVisits, null);
    assert.equal(plain.title, null);
    // What the SDK cannot send on a create, an edit can.
    const edited = await alice.updateShortUrl(
      { shortCode: plain.shortCode },
      { forwardQuery: false },
    );
    assert.equal(edited.forwardQuery, false);
  });

  test('create refusals: a taken slug, fields hop cannot honour, bad values, a malformed body', async () => {
    await alice.createShortUrl({ longUrl: 'https://example.com/taken', customSlug: 'sh-taken' });
    await rejectsWith(
      alice.createShortUrl({ longUrl: 'https://example.com/other', customSlug: 'sh-taken' }),
      'non-unique-slug',
      400,
      { customSlug: 'sh-taken' },
    );
    await rejectsWith(
      alice.createShortUrl({
        longUrl: 'https://example.com/x',
        validSince: '2026-01-01T00:00:00+00:00',
      }),
      'invalid-data',
      400,
      { invalidElements: ['validSince'] },
    );
    await rejectsWith(
      alice.createShortUrl({
        longUrl: 'https://example.com/x',
        pathPrefix: 'pre',
        shortCodeLength: 40,
      }),
      'invalid-data',
      400,
      { invalidElements: ['pathPrefix', 'shortCodeLength'] },
    );
    await rejectsWith(alice.createShortUrl({ longUrl: 'not a url' }), 'invalid-data', 400, {
      invalidElements: ['longUrl'],
    });
    await rejectsWith(
      alice.createShortUrl({ longUrl: 'https://example.com/x', customSlug: 'no/slash' }),
      'invalid-data',
      400,
      { invalidElements: ['customSlug'] },
    );
    await rejectsWith(
      alice.createShortUrl({ longUrl: 'https://example.com/x', validUntil: 'someday' }),
      'invalid-data',
      400,
      { invalidElements: ['validUntil'] },
    );
    await rejectsWith(
      alice.createShortUrl({ longUrl: 'https://example.com/x', domain: 'nowhere.example' }),
      'invalid-data',
      400,
      { invalidElements: ['domain'] },
    );
    await rejectsWith(alice.createShortUrl({}), 'invalid-data', 400, {
      invalidElements: ['longUrl'],
    });
    for (const body of ['{"longUrl": ', '[1, 2]']) {
      const response = await fetch(`${server.url}/rest/v3/short-urls`, {
        method: 'POST',
        headers: { 'x-api-key': aliceKey, 'content-type': 'application/json' },
        body,
      });
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(
        ((await response.json()) as { type: string }).type,
        `${ERROR}malformed-request-body`,
      );
    }
  });

  test('findIfExists answers the caller’s link to that URL instead of a new one', async () => {
    const first = await alice.createShortUrl({
      longUrl: 'https://example.com/once',
      findIfExists: true,
    });
    const again = await alice.createShortUrl({
      longUrl: 'https://example.com/once',
      findIfExists: true,
    });
    assert.equal(again.shortCode, first.shortCode);
    const other = await alice.createShortUrl({ longUrl: 'https://example.com/once' });
    assert.notEqual(other.shortCode, first.shortCode);
  });

  test('list: paging, search, tags any|all, exclusions and order', async () => {
    const bob = client(await server.ownerKey('bob'));
    const codes = ['ls-a', 'ls-b', 'ls-c', 'ls-d', 'ls-e'];
    for (const [index, code] of codes.entries()) {
      await bob.createShortUrl({
        longUrl: `https://list.example/${code}`,
        customSlug: code,
        tags: index % 2 === 0 ? ['even', 'list'] : ['odd', 'list'],
        title: `Title ${String(9 - index)}`,
      });
      server.clock.advance(1_000);
    }
    const page1 = await bob.listShortUrls({ itemsPerPage: 2, page: '1' });
    assert.deepEqual(
      page1.data.map((url) => url.shortCode),
      ['ls-e', 'ls-d'],
      'newest first',
    );
    assert.equal(page1.pagination.totalItems, 5);
    assert.equal(page1.pagination.pagesCount, 3);
    assert.equal(page1.pagination.currentPage, 1);
    const page3 = await bob.listShortUrls({ itemsPerPage: 2, page: '3' });
    assert.deepEqual(
      page3.data.map((url) => url.shortCode),
      ['ls-a'],
    );
    assert.equal(page3.pagination.itemsInCurrentPage, 1);
    const all = await bob.listShortUrls({ itemsPerPage: -1 });
    assert.equal(all.data.length, 5);

    const searched = await bob.listShortUrls({ searchTerm: 'ls-c' });
    assert.deepEqual(
      searched.data.map((url) => url.shortCode),
      ['ls-c'],
    );
    const anyTag = await bob.listShortUrls({ tags: ['even', 'odd'], tagsMode: 'any' });
    assert.equal(anyTag.pagination.totalItems, 5);
    const allTags = await bob.listShortUrls({ tags: ['even', 'list'], tagsMode: 'all' });
    assert.deepEqual(allTags.data.map((url) => url.shortCode).sort(), ['ls-a', 'ls-c', 'ls-e']);
    const excluded = await bob.listShortUrls({ excludeTags: ['even'] });
    assert.deepEqual(excluded.data.map((url) => url.shortCode).sort(), ['ls-b', 'ls-d']);
    const excludedAll = await bob.listShortUrls({
      excludeTags: ['odd', 'list'],
      excludeTagsMode: 'all',
    });
    assert.deepEqual(excludedAll.data.map((url) => url.shortCode).sort(), ['ls-a', 'ls-c', 'ls-e']);

    const byCode = await bob.listShortUrls({ orderBy: { field: 'shortCode', dir: 'ASC' } });
    assert.deepEqual(
      byCode.data.map((url) => url.shortCode),
      codes,
    );
    const byTitle = await bob.listShortUrls({ orderBy: { field: 'title', dir: 'ASC' } });
    assert.deepEqual(
      byTitle.data.map((url) => url.shortCode),
      [...codes].reverse(),
    );
    const oldest = await bob.listShortUrls({
      orderBy: { field: 'dateCreated', dir: 'ASC' },
      itemsPerPage: 1,
    });
    assert.equal(oldest.data[0]?.shortCode, 'ls-a');

    await rejectsWith(
      bob.listShortUrls({ orderBy: { field: 'color', dir: 'ASC' } }),
      'invalid-data',
      400,
      {
        invalidElements: ['orderBy'],
      },
    );
    await rejectsWith(bob.listShortUrls({ page: '0' }), 'invalid-data', 400, {
      invalidElements: ['page'],
    });
    await rejectsWith(bob.listShortUrls({ apiKeyName: 'someone' }), 'invalid-data', 400, {
      invalidElements: ['apiKeyName'],
    });
  });

  test('an owner key sees only its links; the admin sees every owner’s', async () => {
    const carol = client(await server.ownerKey('carol'));
    await carol.createShortUrl({ longUrl: 'https://example.com/carol', customSlug: 'carol-own' });
    await rejectsWith(alice.getShortUrl({ shortCode: 'carol-own' }), 'short-url-not-found', 404, {
      shortCode: 'carol-own',
    });
    await rejectsWith(
      alice.updateShortUrl({ shortCode: 'carol-own' }, { title: 'mine' }),
      'short-url-not-found',
      404,
    );
    await rejectsWith(alice.deleteShortUrl({ shortCode: 'carol-own' }), 'short-url-not-found', 404);
    const aliceList = await alice.listShortUrls({ itemsPerPage: -1 });
    assert.ok(!aliceList.data.some((url) => url.shortCode === 'carol-own'));
    assert.equal(
      (await admin.getShortUrl({ shortCode: 'carol-own' })).longUrl,
      'https://example.com/carol',
    );
    const carolList = await carol.listShortUrls();
    assert.deepEqual(
      carolList.data.map((url) => url.shortCode),
      ['carol-own'],
    );
  });

  test('get, edit and delete one short URL; an unknown code is short-url-not-found', async () => {
    await alice.createShortUrl({
      longUrl: 'https://example.com/edit-me',
      customSlug: 'sh-edit',
      maxVisits: 5,
    });
    const edited = await alice.updateShortUrl(
      { shortCode: 'sh-edit' },
      {
        longUrl: 'https://example.com/edited',
        title: 'Edited',
        tags: ['changed'],
        maxVisits: null,
        crawlable: true,
        forwardQuery: false,
      },
    );
    assert.equal(edited.longUrl, 'https://example.com/edited');
    assert.equal(edited.title, 'Edited');
    assert.deepEqual(edited.tags, ['changed']);
    assert.equal(edited.meta.maxVisits, null);
    assert.equal(edited.crawlable, true);
    assert.equal(edited.forwardQuery, false);
    assert.deepEqual(await alice.getShortUrl({ shortCode: 'sh-edit' }), edited);
    await rejectsWith(
      alice.updateShortUrl({ shortCode: 'sh-edit' }, { validSince: '2026-01-01T00:00:00+00:00' }),
      'invalid-data',
      400,
      { invalidElements: ['validSince'] },
    );
    await rejectsWith(
      alice.updateShortUrl({ shortCode: 'sh-edit' }, { maxVisits: -3 }),
      'invalid-data',
      400,
      {
        invalidElements: ['maxVisits'],
      },
    );
    // hop's HOP_MAX_TTL (10 years here) forbids links that never expire: said, not dropped.
    await rejectsWith(
      alice.updateShortUrl({ shortCode: 'sh-edit' }, { validUntil: null }),
      'invalid-data',
      400,
      {
        invalidElements: ['validUntil'],
      },
    );
    await alice.deleteShortUrl({ shortCode: 'sh-edit' });
    await rejectsWith(alice.getShortUrl({ shortCode: 'sh-edit' }), 'short-url-not-found', 404, {
      shortCode: 'sh-edit',
    });
    await rejectsWith(alice.getShortUrl({ shortCode: 'never-made' }), 'short-url-not-found', 404);
    await rejectsWith(
      alice.getShortUrl({ shortCode: 'never-made', domain: 'other.example' }),
      'short-url-not-found',
      404,
      { shortCode: 'never-made', domain: 'other.example' },
    );
  });

  test('visits after real redirects, paged; the overview sums the caller’s links, bots apart', async () => {
    const owner = client(await server.ownerKey('visitor-owner'));
    const made = await owner.createShortUrl({
      longUrl: 'https://example.com/visited',
      customSlug: 'sh-visits',
    });
    const people = await sendClicks(`${server.url}/sh-visits`, 5, 2, {
      'user-agent': CHROME,
      referer: 'https://news.example/post',
    });
    assert.equal(people.redirected, 5);
    const bots = await sendClicks(`${server.url}/sh-visits`, 2, 1, { 'user-agent': 'curl/8.4.0' });
    assert.equal(bots.redirected, 2);
    await settleClicks(server);

    const visits = await owner.getShortUrlVisits(
      { shortCode: made.shortCode },
      { itemsPerPage: 3, page: 1 },
    );
    assert.equal(visits.pagination.totalItems, 7);
    assert.equal(visits.pagination.pagesCount, 3);
    assert.equal(visits.data.length, 3);
    const every = await owner.getShortUrlVisits({ shortCode: made.shortCode });
    assert.equal(every.data.length, 7);
    assert.equal(every.data.filter((visit) => visit.potentialBot).length, 2);
    assert.ok(every.data.some((visit) => visit.referer === 'news.example'));
    assert.match(every.data[0]?.date ?? '', /\+00:00$/);
    const people2 = await owner.getShortUrlVisits(
      { shortCode: made.shortCode },
      { excludeBots: true },
    );
    assert.equal(people2.pagination.totalItems, 5);
    const future = await owner.getShortUrlVisits(
      { shortCode: made.shortCode },
      { startDate: '2030-01-01T00:00:00+00:00' },
    );
    assert.equal(future.pagination.totalItems, 0);
    // The last instant a Date can hold is refused by name, not a 500.
    for (const [name, value] of [
      ['endDate', '+275760-09-13T00:00:00.000Z'],
      ['startDate', '-271821-04-20T00:00:00.000Z'],
    ] as const) {
      await rejectsWith(
        owner.getShortUrlVisits({ shortCode: made.shortCode }, { [name]: value }),
        'invalid-data',
        400,
        { invalidElements: [name] },
      );
    }

    const summary = (await owner.getShortUrl({ shortCode: 'sh-visits' })).visitsSummary;
    assert.deepEqual(summary, { total: 7, nonBots: 5, bots: 2 });
    const overview = await owner.getVisitsOverview();
    assert.deepEqual(overview.nonOrphanVisits, { total: 7, nonBots: 5, bots: 2 });
    assert.equal(overview.orphanVisits.total, 0);

    await rejectsWith(
      owner.getShortUrlVisits({ shortCode: 'no-such-code' }),
      'short-url-not-found',
      404,
    );
    await rejectsWith(
      owner.getShortUrlVisits({ shortCode: made.shortCode }, { startDate: 'yesterday-ish' }),
      'invalid-data',
      400,
      { invalidElements: ['startDate'] },
    );
  });

  test('tags: list, stats, rename (404 and 409 as Shlink), delete', async () => {
    const dave = client(await server.ownerKey('dave'));
    await dave.createShortUrl({ longUrl: 'https://example.com/t1', tags: ['alpha', 'beta'] });
    await dave.createShortUrl({ longUrl: 'https://example.com/t2', tags: ['alpha'] });
    assert.deepEqual((await dave.listTags()).data, ['alpha', 'beta']);
    const stats = await dave.tagsStats();
    assert.deepEqual(
      stats.data.map((stat) => [stat.tag, stat.shortUrlsCount]),
      [
        ['alpha', 2],
        ['beta', 1],
      ],
    );
    assert.deepEqual(stats.data[0]?.visitsSummary, { total: 0, nonBots: 0, bots: 0 });

    await dave.editTag({ oldName: 'beta', newName: 'gamma' });
    assert.deepEqual((await dave.listTags()).data, ['alpha', 'gamma']);
    await rejectsWith(dave.editTag({ oldName: 'nope', newName: 'other' }), 'tag-not-found', 404, {
      tag: 'nope',
    });
    await rejectsWith(dave.editTag({ oldName: 'gamma', newName: 'alpha' }), 'tag-conflict', 409, {
      oldName: 'gamma',
      newName: 'alpha',
    });
    await rejectsWith(dave.editTag({ oldName: 'gamma', newName: '' }), 'invalid-data', 400, {
      invalidElements: ['newName'],
    });
    await dave.deleteTags(['gamma', 'never-there']);
    assert.deepEqual((await dave.listTags()).data, ['alpha']);
    // Another owner's tags are not the caller's to see.
    assert.ok(!(await alice.listTags()).data.includes('alpha'));
  });

  test('domains, health, and mercure as Shlink answers without a hub', async () => {
    const domains = await alice.listDomains();
    assert.deepEqual(domains.data[0], {
      domain: 'hop.test',
      isDefault: true,
      redirects: { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null },
    });
    assert.deepEqual(domains.defaultRedirects, {
      baseUrlRedirect: null,
      regular404Redirect: null,
      invalidShortUrlRedirect: null,
    });
    const health = await client('no key needed').health();
    assert.equal(health.status, 'pass');
    assert.match(health.version, /^5\.\d+\.\d+$/);
    const unversioned = await fetch(`${server.url}/rest/health`);
    assert.equal(unversioned.status, 200);
    assert.match(unversioned.headers.get('content-type') ?? '', /^application\/health\+json/);
    await rejectsWith(alice.mercureInfo(), 'mercure-not-configured', 501);
  });

  test('redirect rules: Shlink conditions set as hop rules, read back, and served', async () => {
    await alice.createShortUrl({ longUrl: 'https://example.com/default', customSlug: 'sh-rules' });
    const set = await alice.setShortUrlRedirectRules(
      { shortCode: 'sh-rules' },
      {
        redirectRules: [
          {
            longUrl: 'https://example.com/de-android',
            conditions: [
              { type: 'geolocation-country-code', matchKey: null, matchValue: 'DE' },
              { type: 'device', matchKey: null, matchValue: 'android' },
            ],
          },
          {
            longUrl: 'https://example.com/campaign',
            conditions: [{ type: 'query-param', matchKey: 'utm', matchValue: 'x' }],
          },
          {
            longUrl: 'https://example.com/french',
            conditions: [{ type: 'language', matchKey: null, matchValue: 'fr' }],
          },
        ],
      },
    );
    assert.equal(set.defaultLongUrl, 'https://example.com/default');
    assert.deepEqual(
      set.redirectRules.map((rule) => [
        rule.priority,
        rule.longUrl,
        rule.conditions.map((c) => c.type),
      ]),
      [
        [1, 'https://example.com/de-android', ['device', 'geolocation-country-code']],
        [2, 'https://example.com/campaign', ['query-param']],
        [3, 'https://example.com/french', ['language']],
      ],
    );
    assert.deepEqual(await alice.getShortUrlRedirectRules({ shortCode: 'sh-rules' }), set);
    assert.equal((await alice.getShortUrl({ shortCode: 'sh-rules' })).hasRedirectRules, true);

    const campaign = await fetch(`${server.url}/sh-rules?utm=x`, { redirect: 'manual' });
    // A Shlink create forwards the query unless told not to (Shlink's default).
    assert.equal(campaign.headers.get('location'), 'https://example.com/campaign?utm=x');
    const french = await fetch(`${server.url}/sh-rules`, {
      redirect: 'manual',
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(french.headers.get('location'), 'https://example.com/french');

    await rejectsWith(
      alice.setShortUrlRedirectRules(
        { shortCode: 'sh-rules' },
        {
          redirectRules: [
            {
              longUrl: 'https://example.com/city',
              conditions: [{ type: 'geolocation-city-name', matchKey: null, matchValue: 'Berlin' }],
            },
          ],
        },
      ),
      'invalid-data',
      400,
      { invalidElements: ['redirectRules'] },
    );
    await rejectsWith(
      alice.setShortUrlRedirectRules(
        { shortCode: 'sh-rules' },
        {
          redirectRules: [
            {
              longUrl: 'https://example.com/x',
              conditions: [{ type: 'geolocation-country-code', matchKey: null, matchValue: 'ZZZ' }],
            },
          ],
        },
      ),
      'invalid-data',
      400,
      { invalidElements: ['redirectRules'] },
    );
    // Emptied: no rules left.
    const cleared = await alice.setShortUrlRedirectRules(
      { shortCode: 'sh-rules' },
      { redirectRules: [] },
    );
    assert.deepEqual(cleared.redirectRules, []);
  });

  test('a hop rule of lists reads as Shlink rules of one value each; one Shlink cannot say is refused', async () => {
    const made = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: {
        destination: 'https://example.com/base',
        alias: 'sh-hop-rules',
        rules: [{ destination: 'https://example.com/dach', when: { country: ['DE', 'AT'] } }],
      },
    });
    assert.equal(made.status, 201, made.text);
    const rules = await alice.getShortUrlRedirectRules({ shortCode: 'sh-hop-rules' });
    assert.deepEqual(rules.redirectRules, [
      {
        longUrl: 'https://example.com/dach',
        priority: 1,
        conditions: [{ type: 'geolocation-country-code', matchKey: null, matchValue: 'DE' }],
      },
      {
        longUrl: 'https://example.com/dach',
        priority: 2,
        conditions: [{ type: 'geolocation-country-code', matchKey: null, matchValue: 'AT' }],
      },
    ]);
    const tablets = await server.request('PATCH', `/v1/links/${made.json.id as string}`, {
      key: aliceKey,
      body: {
        rules: [{ destination: 'https://example.com/tablet', when: { device: ['tablet'] } }],
      },
    });
    assert.equal(tablets.status, 200, tablets.text);
    await rejectsWith(
      alice.getShortUrlRedirectRules({ shortCode: 'sh-hop-rules' }),
      'invalid-data',
      400,
      {
        invalidElements: ['redirectRules'],
      },
    );
  });

  test('bad bodies on edits and rules answer Shlink problems, never a 500', async () => {
    await alice.createShortUrl({
      longUrl: 'https://example.com/hostile',
      customSlug: 'sh-hostile',
    });
    const send = async (method: string, path: string, body: string) => {
      const response = await fetch(`${server.url}/rest/v3${path}`, {
        method,
        headers: { 'x-api-key': aliceKey, 'content-type': 'application/json' },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const cases: [string, string, string, string, string[] | undefined][] = [
      ['PATCH', '/short-urls/sh-hostile', '"a string"', 'malformed-request-body', undefined],
      ['PATCH', '/short-urls/sh-hostile', '{"tags": "one"}', 'invalid-data', ['tags']],
      ['PATCH', '/short-urls/sh-hostile', '{"tags": ["not a tag!"]}', 'invalid-data', ['tags']],
      [
        'POST',
        '/short-urls/sh-hostile/redirect-rules',
        '{"redirectRules": 3}',
        'invalid-data',
        ['redirectRules'],
      ],
      [
        'POST',
        '/short-urls/sh-hostile/redirect-rules',
        '{"redirectRules": [{"longUrl": "https://example.com/", "conditions": [null]}]}',
        'invalid-data',
        ['redirectRules'],
      ],
      [
        'POST',
        '/short-urls/sh-hostile/redirect-rules',
        '{"redirectRules": [{"longUrl": "javascript:alert(1)", "conditions": [{"type": "language", "matchKey": null, "matchValue": "de"}]}]}',
        'invalid-data',
        ['redirectRules'],
      ],
      [
        'POST',
        '/short-urls/sh-hostile/redirect-rules',
        '{"redirectRules": [{"longUrl": "https://example.com/", "conditions": [{"type": "ip-address", "matchKey": null, "matchValue": "1.*.3.4"}]}]}',
        'invalid-data',
        ['redirectRules'],
      ],
      ['PUT', '/tags', '{"oldName": 3}', 'invalid-data', ['oldName', 'newName']],
    ];
    for (const [method, path, body, code, invalidElements] of cases) {
      const answer = await send(method, path, body);
      assert.equal(answer.status, 400, `${method} ${path} ${body}`);
      assert.equal(answer.body['type'], `${ERROR}${code}`);
      if (invalidElements !== undefined)
        assert.deepEqual(answer.body['invalidElements'], invalidElements);
    }
    // A whole-octet wildcard is Shlink's way to say a CIDR.
    const wildcard = await alice.setShortUrlRedirectRules(
      { shortCode: 'sh-hostile' },
      {
        redirectRules: [
          {
            longUrl: 'https://example.com/office',
            conditions: [{ type: 'ip-address', matchKey: null, matchValue: '10.2.*.*' }],
          },
        ],
      },
    );
    assert.equal(wildcard.redirectRules[0]?.conditions[0]?.matchValue, '10.2.0.0/16');
  });

  test('authentication: no key, an unknown key, a key without the scope', async () => {
    const none = await fetch(`${server.url}/rest/v3/short-urls`);
    assert.equal(none.status, 401);
    assert.deepEqual(((await none.json()) as { expectedHeaders: string[] }).expectedHeaders, [
      'X-Api-Key',
    ]);
    await rejectsWith(client('').listShortUrls(), 'missing-authentication', 401);
    await rejectsWith(client('hop_not_a_key').listShortUrls(), 'invalid-api-key', 401);
    const readOnly = await server.request('POST', '/v1/keys', {
      body: { owner: 'alice', scopes: ['links:read'] },
    });
    assert.equal(readOnly.status, 201, readOnly.text);
    const reader = client(readOnly.json.key as string);
    assert.ok(Array.isArray((await reader.listShortUrls()).data));
    await rejectsWith(
      reader.createShortUrl({ longUrl: 'https://example.com/no' }),
      'forbidden-operation',
      403,
      {
        scope: 'links:write',
      },
    );
    await rejectsWith(reader.deleteTags(['demo']), 'forbidden-tag-operation', 403);
    await rejectsWith(reader.getVisitsOverview(), 'forbidden-operation', 403, {
      scope: 'analytics:read',
    });
  });

  test('unknown paths under /rest answer Shlink’s not-found as JSON; CORS and preflights as Shlink', async () => {
    for (const path of ['/rest/v3/nothing-here', '/rest/v9/short-urls', '/rest']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      assert.equal(response.status, 404, path);
      assert.equal(((await response.json()) as { type: string }).type, `${ERROR}not-found`);
    }
    const preflight = await fetch(`${server.url}/rest/v3/short-urls`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://ui.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'x-api-key, content-type');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(preflight.headers.get('access-control-max-age'), '3600');
    const cross = await fetch(`${server.url}/rest/v3/short-urls`, {
      headers: { origin: 'https://ui.example', 'x-api-key': aliceKey },
    });
    assert.equal(cross.status, 200);
    assert.equal(cross.headers.get('access-control-allow-origin'), '*');
  });

  test('/rest/v2 and /rest/v1 answer as v3; the legacy shorten takes the key as apiKey', async () => {
    for (const version of ['v1', 'v2']) {
      const response = await fetch(`${server.url}/rest/${version}/short-urls/sh-taken`, {
        headers: { 'x-api-key': aliceKey },
      });
      assert.equal(response.status, 200, version);
      assert.equal(((await response.json()) as ShortUrl).longUrl, 'https://example.com/taken');
    }
    const query = new URLSearchParams({
      apiKey: aliceKey,
      longUrl: 'https://example.com/shortened',
    });
    const json = await fetch(`${server.url}/rest/v3/short-urls/shorten?${query.toString()}`);
    assert.equal(json.status, 200);
    const shortened = (await json.json()) as ShortUrl;
    assert.equal(shortened.longUrl, 'https://example.com/shortened');
    const text = await fetch(
      `${server.url}/rest/v3/short-urls/shorten?${query.toString()}&format=txt`,
    );
    assert.equal(text.status, 200);
    assert.match(await text.text(), /^http:\/\/hop\.test\/[A-Za-z0-9_-]+$/);
    const keyless = await fetch(
      `${server.url}/rest/v3/short-urls/shorten?longUrl=https://example.com/`,
    );
    assert.equal(keyless.status, 401);
    assert.equal(((await keyless.json()) as { param: string }).param, 'apiKey');
  });

  test('one link: made through /v1, seen through Shlink; edited through Shlink, seen through /v1', async () => {
    const made = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: {
        destination: 'https://example.com/v1-made',
        alias: 'sh-v1',
        tags: ['v1'],
        max_clicks: 9,
      },
    });
    assert.equal(made.status, 201, made.text);
    const seen = await alice.getShortUrl({ shortCode: 'sh-v1' });
    assert.equal(seen.longUrl, 'https://example.com/v1-made');
    assert.deepEqual(seen.tags, ['v1']);
    assert.equal(seen.meta.maxVisits, 9);
    await alice.updateShortUrl(
      { shortCode: 'sh-v1' },
      {
        longUrl: 'https://example.com/shlink-edit',
        maxVisits: 3,
        validUntil: '2031-05-01T10:00:00+02:00',
      },
    );
    const v1 = await server.request('GET', `/v1/links/${made.json.id as string}`, {
      key: aliceKey,
    });
    assert.equal(v1.json.destination, 'https://example.com/shlink-edit');
    assert.equal(v1.json.max_clicks, 3);
    assert.equal(v1.json.expires_at, '2031-05-01T08:00:00.000Z');
    assert.equal(v1.json.id, made.json.id);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface LinkJson {
  id: string;
  code: string;
  tags: string[];
  version: number;
}

/** Issue 22's tags (ADR 0119): GET /v1/tags, PATCH and DELETE /v1/tags/{name}, list filters. */
describe('tags API', () => {
  let server: TestServer;
  /** Clicks are folded by the embedded aggregator; PostgreSQL runs have none (on-postgres.test.ts). */
  let countsClicks = false;
  let owners = 0;
  before(async () => {
    server = await startTestServer();
    countsClicks = server.runtime.clicks?.aggregator != null;
  });
  after(async () => {
    await server.close();
  });

  /** A new owner's key: each test has links of its own. */
  const newOwner = async () => server.ownerKey(`tagger-${++owners}`);

  const createLinks = async (key: string, tagLists: readonly string[][]): Promise<LinkJson[]> => {
    const links: LinkJson[] = [];
    for (const [i, tags] of tagLists.entries()) {
      const created = await server.request('POST', '/v1/links', {
        key,
        body: { destination: `https://tags.example/${owners}/${i}`, tags },
      });
      assert.equal(created.status, 201, created.text);
      links.push(created.json as LinkJson);
    }
    return links;
  };

  const get = async (key: string, path: string) => {
    const response = await server.request('GET', path, { key });
    assert.equal(response.status, 200, response.text);
    return response.json;
  };
  const listIds = async (key: string, query: string) =>
    ((await get(key, `/v1/links?${query}`)).items as LinkJson[]).map((link) => link.id);
  const linkOf = async (key: string, link: LinkJson) =>
    (await get(key, `/v1/links/${link.id}`)) as LinkJson;

  describe('happy', () => {
    test("lists the key's tags by name with links and clicks; deleted links do not count", async () => {
      const key = await newOwner();
      const otherKey = await newOwner();
      const [a, b, c, gone] = await createLinks(key, [
        ['news', 'promo'],
        ['promo'],
        ['Spring', 'news'],
        ['news', 'gone'],
      ]);
      await createLinks(otherKey, [['news', 'secret']]);
      assert.equal((await server.request('DELETE', `/v1/links/${gone!.id}`, { key })).status, 204);
      const clicks = new Map([
        [a!.code, 3],
        [b!.code, 2],
        [gone!.code, 4],
      ]);
      if (countsClicks) {
        for (const [code, n] of clicks) {
          for (let i = 0; i < n; i++) {
            const visit = await server.request('GET', `/${code}`, {
              key: null,
              headers: { 'user-agent': BROWSER },
            });
            assert.ok(visit.status === 302 || visit.status === 404, visit.text);
          }
        }
        await settleClicks(server);
      }
      const sum = (...codes: string[]) =>
        countsClicks ? codes.reduce((total, code) => total + (clicks.get(code) ?? 0), 0) : 0;
      assert.deepEqual(await get(key, '/v1/tags'), {
        tags: [
          { name: 'Spring', links: 1, clicks: sum(c!.code) },
          { name: 'news', links: 2, clicks: sum(a!.code, c!.code) },
          { name: 'promo', links: 2, clicks: sum(a!.code, b!.code) },
        ],
        next_cursor: null,
      });
      // An admin sees every owner's tags.
      const all = (await get(server.adminKey, '/v1/tags?search=secret')).tags;
      assert.deepEqual(all, [{ name: 'secret', links: 1, clicks: 0 }]);
    });

    test('search is a case-insensitive substring; pages follow next_cursor', async () => {
      const key = await newOwner();
      await createLinks(key, [['alpha', 'Beta', 'gamma'], ['delta', 'epsilon'], ['ALPHABET']]);
      const names = async (query: string) =>
        ((await get(key, `/v1/tags?${query}`)).tags as { name: string }[]).map((t) => t.name);
      assert.deepEqual(await names('search=ALPHA'), ['ALPHABET', 'alpha']);
      assert.deepEqual(await names('search=et'), ['ALPHABET', 'Beta']);
      assert.deepEqual(await names('search=nothing'), []);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page++) {
        const query: string = `limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
        const body = await get(key, `/v1/tags?${query}`);
        assert.ok(body.tags.length <= 2);
        seen.push(...(body.tags as { name: string }[]).map((t) => t.name));
        cursor = body.next_cursor as string | null;
        if (cursor === null) break;
      }
      assert.deepEqual(seen, ['ALPHABET', 'Beta', 'alpha', 'delta', 'epsilon', 'gamma']);
    });

    test('GET /v1/links filters by tags (any, all) and excludes tags', async () => {
      const key = await newOwner();
      const [a, ab, abc, c, none] = await createLinks(key, [
        ['a'],
        ['a', 'b'],
        ['a', 'b', 'c'],
        ['c'],
        [],
      ]);
      const ids = (...links: (LinkJson | undefined)[]) => links.map((link) => link!.id).reverse();
      assert.deepEqual(await listIds(key, 'tag=a'), ids(a, ab, abc));
      assert.deepEqual(await listIds(key, 'tag=b&tag=c'), ids(ab, abc, c));
      assert.deepEqual(await listIds(key, 'tag=b&tag=c&tags_mode=any'), ids(ab, abc, c));
      assert.deepEqual(await listIds(key, 'tag=b&tag=c&tags_mode=all'), ids(abc));
      assert.deepEqual(await listIds(key, 'exclude_tag=a'), ids(c, none));
      assert.deepEqual(await listIds(key, 'exclude_tag=a&exclude_tag=c'), ids(none));
      assert.deepEqual(await listIds(key, 'tag=a&exclude_tag=c'), ids(a, ab));
      assert.deepEqual(await listIds(key, 'tag=a&tag=c&tags_mode=all&exclude_tag=b'), []);
    });

    test('rename merges into an existing tag, bumping only the changed links', async () => {
      const key = await newOwner();
      const otherKey = await newOwner();
      const [both, old, target, untouched] = await createLinks(key, [
        ['x', 'old', 'new'],
        ['old', 'y'],
        ['new'],
        ['y'],
      ]);
      const [theirs] = await createLinks(otherKey, [['old']]);
      const renamed = await server.request('PATCH', '/v1/tags/old', { key, body: { name: 'new' } });
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual(renamed.json, { name: 'new', links: 3 });

      const afterBoth = await linkOf(key, both!);
      assert.deepEqual(afterBoth.tags, ['x', 'new']);
      assert.equal(afterBoth.version, both!.version + 1);
      const afterOld = await linkOf(key, old!);
      assert.deepEqual(afterOld.tags, ['new', 'y']);
      assert.equal(afterOld.version, old!.version + 1);
      assert.deepEqual(await linkOf(key, target!), target);
      assert.deepEqual(await linkOf(key, untouched!), untouched);
      // Another owner's links are not the key's to change.
      assert.deepEqual(await linkOf(otherKey, theirs!), theirs);
      const names = (await get(key, '/v1/tags')).tags.map((t: { name: string }) => t.name);
      assert.deepEqual(names, ['new', 'x', 'y']);

      // To a new name, and to its own name (nothing changes, the count is answered).
      const fresh = await server.request('PATCH', '/v1/tags/y', { key, body: { name: 'zed' } });
      assert.deepEqual(fresh.json, { name: 'zed', links: 2 });
      const same = await server.request('PATCH', '/v1/tags/zed', { key, body: { name: 'zed' } });
      assert.deepEqual(same.json, { name: 'zed', links: 2 });
      assert.equal((await linkOf(key, untouched!)).version, untouched!.version + 1);
    });

    test('delete removes the tag from every link the key can see', async () => {
      const key = await newOwner();
      const otherKey = await newOwner();
      const [one, two, kept] = await createLinks(key, [['drop', 'keep'], ['drop'], ['keep']]);
      const [theirs] = await createLinks(otherKey, [['drop']]);
      const deleted = await server.request('DELETE', '/v1/tags/drop', { key });
      assert.equal(deleted.status, 204, deleted.text);
      const afterOne = await linkOf(key, one!);
      assert.deepEqual(afterOne.tags, ['keep']);
      assert.equal(afterOne.version, one!.version + 1);
      assert.deepEqual((await linkOf(key, two!)).tags, []);
      assert.deepEqual(await linkOf(key, kept!), kept);
      assert.deepEqual(await linkOf(otherKey, theirs!), theirs);
      assert.deepEqual(await listIds(key, 'tag=drop'), []);
      assertProblem(await server.request('DELETE', '/v1/tags/drop', { key }), 404, 'not-found');
    });

    test('an admin renames and deletes across owners', async () => {
      const first = await newOwner();
      const second = await newOwner();
      const [mine] = await createLinks(first, [['shared-admin']]);
      const [theirs] = await createLinks(second, [['shared-admin']]);
      const renamed = await server.request('PATCH', '/v1/tags/shared-admin', {
        body: { name: 'renamed-admin' },
      });
      assert.deepEqual(renamed.json, { name: 'renamed-admin', links: 2 });
      assert.deepEqual((await linkOf(first, mine!)).tags, ['renamed-admin']);
      assert.equal((await server.request('DELETE', '/v1/tags/renamed-admin')).status, 204);
      assert.deepEqual((await linkOf(second, theirs!)).tags, []);
    });
  });

  test('/openapi.json documents the tag routes and the list filters', async () => {
    const spec = (await server.request('GET', '/openapi.json', { key: null })).json;
    assert.ok(spec.paths['/v1/tags'].get.responses['200']);
    assert.ok(spec.paths['/v1/tags/{name}'].patch.requestBody);
    assert.ok(spec.paths['/v1/tags/{name}'].delete.responses['204']);
    const listParameters = (spec.paths['/v1/links'].get.parameters as { name: string }[]).map(
      (parameter) => parameter.name,
    );
    for (const name of ['tag', 'tags_mode', 'exclude_tag'])
      assert.ok(listParameters.includes(name));
  });

  describe('errors', () => {
    test('404 for a tag no link the key can see carries', async () => {
      const key = await newOwner();
      const otherKey = await newOwner();
      await createLinks(otherKey, [['private-tag']]);
      await createLinks(key, [['mine']]);
      for (const name of ['private-tag', 'unknown', 'MINE', 'not%20a%20tag']) {
        const rename = await server.request('PATCH', `/v1/tags/${name}`, {
          key,
          body: { name: 'x' },
        });
        assertProblem(rename, 404, 'not-found');
        assertProblem(
          await server.request('DELETE', `/v1/tags/${name}`, { key }),
          404,
          'not-found',
        );
      }
    });

    test('422 for a new name the tag rules refuse, and for bad bodies and queries', async () => {
      const key = await newOwner();
      await createLinks(key, [['valid']]);
      for (const name of ['', 'two words', 'x'.repeat(65), 'semi;colon']) {
        const response = await server.request('PATCH', '/v1/tags/valid', { key, body: { name } });
        assertProblem(response, 422, 'invalid-request');
        assert.equal(response.json.errors[0].field, 'name');
      }
      for (const body of [{}, { name: 7 }, { name: 'ok', extra: true }]) {
        const response = await server.request('PATCH', '/v1/tags/valid', { key, body });
        assertProblem(response, 422);
      }
      for (const query of ['limit=0', 'limit=101', 'limit=x', 'unknown=1']) {
        assertProblem(await server.request('GET', `/v1/tags?${query}`, { key }), 422);
      }
      assertProblem(
        await server.request('GET', '/v1/tags?cursor=not-a-cursor', { key }),
        422,
        'invalid-cursor',
      );
      assertProblem(await server.request('GET', '/v1/links?tags_mode=some', { key }), 422);
      const tooMany = Array.from({ length: 21 }, (_, i) => `tag=t${i}`).join('&');
      assertProblem(await server.request('GET', `/v1/links?${tooMany}`, { key }), 422);
      // The link kept its tag through all of it.
      assert.deepEqual((await get(key, '/v1/tags')).tags, [{ name: 'valid', links: 1, clicks: 0 }]);
    });
  });

  describe('security', () => {
    /** A key of `owner` with these scopes (and domains), issued by the admin. */
    const scopedKey = async (owner: string, scopes: string[], domains?: string[]) => {
      const issued = await server.request('POST', '/v1/keys', {
        body: { owner, scopes, ...(domains === undefined ? {} : { domains }) },
      });
      assert.equal(issued.status, 201, issued.text);
      return issued.json.key as string;
    };

    test('403 insufficient-scope: links:read to list, links:write to change', async () => {
      const owner = `scoped-${++owners}`;
      await createLinks(await server.ownerKey(owner), [['scoped']]);
      const reader = await scopedKey(owner, ['links:read']);
      const writer = await scopedKey(owner, ['links:write']);
      const refused = (response: Awaited<ReturnType<TestServer['request']>>, scope: string) => {
        assertProblem(response, 403, 'insufficient-scope');
        assert.match(response.json.detail, new RegExp(scope));
      };
      refused(await server.request('GET', '/v1/tags', { key: writer }), 'links:read');
      const rename = { key: reader, body: { name: 'other' } };
      refused(await server.request('PATCH', '/v1/tags/scoped', rename), 'links:write');
      refused(await server.request('DELETE', '/v1/tags/scoped', { key: reader }), 'links:write');
      // Nothing changed; each scope does what it names.
      const listed = await server.request('GET', '/v1/tags', { key: reader });
      assert.deepEqual(listed.json.tags, [{ name: 'scoped', links: 1, clicks: 0 }]);
      const renamed = await server.request('PATCH', '/v1/tags/scoped', {
        key: writer,
        body: { name: 'renamed' },
      });
      assert.deepEqual(renamed.json, { name: 'renamed', links: 1 });
    });

    test("a key limited to domains counts and changes only its domains' links", async () => {
      const host = `go${++owners}.tags.test`;
      const added = await server.request('POST', '/v1/domains', {
        body: { host, root_redirect: null, not_found_redirect: null },
      });
      assert.equal(added.status, 201, added.text);
      const owner = `domains-${owners}`;
      const everywhere = await server.ownerKey(owner);
      const make = async (body: Record<string, unknown>) => {
        const created = await server.request('POST', '/v1/links', { key: everywhere, body });
        assert.equal(created.status, 201, created.text);
        return created.json as LinkJson;
      };
      const onDefault = await make({ destination: 'https://tags.example/d', tags: ['camp'] });
      const onHost = await make({
        destination: 'https://tags.example/h',
        tags: ['camp'],
        domain: host,
      });
      const limited = await scopedKey(owner, ['links:read', 'links:write'], [host]);

      assert.deepEqual((await get(limited, '/v1/tags')).tags, [
        { name: 'camp', links: 1, clicks: 0 },
      ]);
      assert.deepEqual(await listIds(limited, 'tag=camp'), [onHost.id]);
      const renamed = await server.request('PATCH', '/v1/tags/camp', {
        key: limited,
        body: { name: 'trip' },
      });
      assert.deepEqual(renamed.json, { name: 'trip', links: 1 });
      assert.deepEqual((await linkOf(everywhere, onHost)).tags, ['trip']);
      assert.deepEqual(await linkOf(everywhere, onDefault), onDefault);
      // The default domain's tag is not the limited key's to see or change.
      assertProblem(
        await server.request('DELETE', '/v1/tags/camp', { key: limited }),
        404,
        'not-found',
      );
      assert.deepEqual((await linkOf(everywhere, onDefault)).tags, ['camp']);
    });

    test('401 without a key', async () => {
      assertProblem(await server.request('GET', '/v1/tags', { key: null }), 401);
      const rename = await server.request('PATCH', '/v1/tags/a', {
        key: null,
        body: { name: 'b' },
      });
      assertProblem(rename, 401);
      assertProblem(await server.request('DELETE', '/v1/tags/a', { key: null }), 401);
    });
  });
});

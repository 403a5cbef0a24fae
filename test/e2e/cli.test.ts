import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { runHop } from '../support/hop-process.js';

describe('the hop CLI', () => {
  test('migrate, keys create|list|revoke, links create|list, domains add|list|remove, tags rename|list|delete', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { HOP_DATA_DIR: dir, HOP_PUBLIC_URL: 'https://s.example' };

    const migrated = await runHop(['migrate'], env);
    assert.equal(migrated.status, 0, migrated.stderr);
    const versions = loadMigrations().map((migration) => migration.version);
    assert.match(
      migrated.stdout,
      new RegExp(`applied migrations ${versions.join(', ')} to .*hop\\.db`),
    );
    assert.match((await runHop(['migrate'], env)).stdout, /is up to date/);

    const created = await runHop(['keys', 'create', '--owner', 'cli-team'], env);
    assert.equal(created.status, 0, created.stderr);
    const [key, info] = created.stdout.trim().split('\n');
    assert.match(key!, /^hop_[0-9A-Za-z]{32}$/);
    const id = /^id (\S+), owner cli-team$/.exec(info!)?.[1];
    assert.ok(id, created.stdout);

    const listed = await runHop(['keys', 'list'], env);
    assert.match(listed.stdout, new RegExp(`${id}  ${key!.slice(0, 8)}…  cli-team  active`));
    assert.ok(!listed.stdout.includes(key!), 'the secret is never listed');

    assert.equal((await runHop(['keys', 'revoke', id], env)).status, 0);
    assert.match((await runHop(['keys', 'list'], env)).stdout, new RegExp(`${id} .* revoked`));
    const again = await runHop(['keys', 'revoke', id], env);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /No unrevoked key/);

    // A key that can do only its job (ADR 0118): its scopes, domain, name and expiry listed.
    const scoped = await runHop(
      [
        'keys',
        'create',
        '--owner',
        'cli-team',
        '--name',
        'deploys',
        '--scope',
        'links:read',
        '--scope',
        'links:write',
        '--domain',
        's.example',
        '--expires',
        '2030-12-31T23:59:59Z',
      ],
      env,
    );
    assert.equal(scoped.status, 0, scoped.stderr);
    assert.match(
      scoped.stdout,
      /\nname deploys; scopes links:read,links:write; domains s\.example; expires 2030-12-31T23:59:59\.000Z\n$/,
    );
    const scopedId = /\nid (\S+), owner cli-team\n/.exec(scoped.stdout)?.[1];
    const listedScoped = (await runHop(['keys', 'list'], env)).stdout;
    assert.match(
      listedScoped,
      new RegExp(
        `${scopedId}  hop_.{4}…  cli-team  active  \\S+  "deploys"  links:read,links:write  s\\.example  2030-12-31T23:59:59\\.000Z  never`,
      ),
    );
    const badScope = await runHop(['keys', 'create', '--owner', 'o', '--scope', 'links:nope'], env);
    assert.equal(badScope.status, 1);
    assert.match(badScope.stderr, /not a scope/);

    const link = await runHop(
      [
        'links',
        'create',
        'https://example.com/from-cli',
        '--alias',
        'from-cli',
        '--owner',
        'cli-team',
        '--tag',
        'cli',
        '--tag',
        'team',
      ],
      env,
    );
    assert.equal(link.status, 0, link.stderr);
    assert.equal(link.stdout.trim(), 'https://s.example/from-cli');
    const generated = await runHop(['links', 'create', 'https://example.com/generated'], env);
    assert.match(generated.stdout.trim(), /^https:\/\/s\.example\/[0-9A-Za-z]{7}$/);

    const refused = await runHop(['links', 'create', 'javascript:alert(1)'], env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /absolute http/);
    const taken = await runHop(
      ['links', 'create', 'https://example.com/', '--alias', 'from-cli'],
      env,
    );
    assert.equal(taken.status, 1);
    assert.match(taken.stderr, /already taken/);

    const badState = await runHop(['links', 'list', '--state', 'bogus'], env);
    assert.notEqual(badState.status, 0);
    assert.match(badState.stderr, /Allowed choices are active, disabled, expired, deleted/);

    const codesFile = join(dir, 'codes.txt');
    const seeded = await runHop(
      ['links', 'seed', '--count', '2500', '--owner', 'seeder', '--codes', codesFile],
      env,
    );
    assert.equal(seeded.status, 0, seeded.stderr);
    assert.match(seeded.stderr, /seeded 2500 links in \d+ ms/);
    const seededCodes = readFileSync(codesFile, 'utf8').trim().split('\n');
    assert.equal(new Set(seededCodes).size, 2500);
    assert.ok(seededCodes.every((code) => /^[0-9A-Za-z]{7}$/.test(code)));
    const seededList = await runHop(
      ['links', 'list', '--owner', 'seeder', '--limit', '100', '--json'],
      env,
    );
    assert.equal(seededList.stdout.trim().split('\n').length, 100);
    assert.equal((await runHop(['links', 'seed', '--count', 'many'], env)).status, 2);

    const all = await runHop(['links', 'list', '--owner', 'admin'], env);
    // A header row, then the one link.
    assert.equal(all.stdout.trim().split('\n').length, 2);
    const mine = await runHop(
      [
        'links',
        'list',
        '--owner',
        'cli-team',
        '--tag',
        'team',
        'x',
        '--exclude-tag',
        'y',
        '--json',
      ],
      env,
    );
    const rows = mine.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { code: string });
    assert.deepEqual(
      rows.map((r) => r.code),
      ['from-cli'],
    );

    // Domains (issue 22): the default (HOP_PUBLIC_URL's host) first, then by host.
    const added = await runHop(
      ['domains', 'add', 'Go.Example.com', '--root-redirect', 'https://example.com/', '--http'],
      env,
    );
    assert.equal(added.status, 0, added.stderr);
    assert.equal(
      added.stdout,
      'added go.example.com  http  root https://example.com/  not-found -\n',
    );
    const badDomain = await runHop(['domains', 'add', 'go.example.com:8080'], env);
    assert.equal(badDomain.status, 1);
    assert.match(badDomain.stderr, /host must be a host name/);
    const domains = await runHop(['domains', 'list', '--json'], env);
    assert.deepEqual(
      domains.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { host: string; default: boolean }).host),
      ['s.example', 'go.example.com'],
    );
    // A link on the domain: its short URL names the domain, lists and exports filter by it,
    // and the domain cannot go while the link is on it.
    const onDomain = await runHop(
      [
        'links',
        'create',
        'https://example.com/on-go',
        '--domain',
        'go.example.com',
        '--alias',
        'go-cli',
      ],
      env,
    );
    assert.equal(onDomain.stdout, 'http://go.example.com/go-cli\n', onDomain.stderr);
    const onGoListed = await runHop(['links', 'list', '--domain', 'go.example.com', '--json'], env);
    assert.deepEqual(
      onGoListed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { code: string; domain: string }).domain),
      ['go.example.com'],
    );
    const exported = await runHop(['links', 'export', '--domain', 'go.example.com'], env);
    assert.match(exported.stdout, /^https:\/\/example\.com\/on-go,go-cli,.*,go\.example\.com,,$/m);
    const inUse = await runHop(['domains', 'remove', 'go.example.com'], env);
    assert.equal(inUse.status, 1);
    assert.match(inUse.stderr, /Links use go\.example\.com/);
    const fallback = await runHop(['domains', 'remove', 's.example'], env);
    assert.equal(fallback.status, 1);
    assert.match(fallback.stderr, /default domain/);
    // hop tags (issue 22): a rename onto a tag the link has merges the two.
    const renamed = await runHop(['tags', 'rename', 'cli', 'team', '--owner', 'cli-team'], env);
    assert.equal(renamed.stdout, 'renamed cli to team: 1 links\n', renamed.stderr);
    const tags = await runHop(['tags', 'list', '--json'], env);
    assert.equal(tags.stdout, '{"name":"team","links":1,"clicks":0}\n', tags.stderr);
    const unknown = await runHop(['tags', 'delete', 'cli'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No link .* has this tag/);
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Key JSON as the issue 22 API shapes write it. */
const KEY_JSON_KEYS =
  'id owner admin name prefix scopes domains expires_at last_used_at created_at revoked_at'.split(
    ' ',
  );

describe('API keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('issue shows the key once; list never shows it; revoke locks it out', async () => {
    const issued = await server.request('POST', '/v1/keys', { body: { owner: 'team-a' } });
    assert.equal(issued.status, 201);
    assert.deepEqual(Object.keys(issued.json).sort(), ['key', ...KEY_JSON_KEYS].sort());
    assert.match(issued.json.key, /^hop_[0-9A-Za-z]{32}$/);
    assert.equal(issued.json.owner, 'team-a');
    assert.equal(issued.json.admin, false);

    const created = await server.request('POST', '/v1/links', {
      key: issued.json.key,
      body: { destination: 'https://example.com/team' },
    });
    assert.equal(created.json.owner, 'team-a', 'the owner comes from the key');

    const listed = await server.request('GET', '/v1/keys');
    assert.equal(listed.status, 200);
    const entry = listed.json.items.find((k: { id: string }) => k.id === issued.json.id);
    assert.deepEqual(Object.keys(entry).sort(), [...KEY_JSON_KEYS].sort());
    assert.deepEqual(
      listed.json.keys,
      listed.json.items,
      'items: the list as older clients read it',
    );
    assert.equal(entry.prefix, issued.json.key.slice(0, 8));
    assert.equal(entry.revoked_at, null);
    assert.ok(!listed.text.includes(issued.json.key));

    assert.equal((await server.request('DELETE', `/v1/keys/${issued.json.id}`)).status, 204);
    assertProblem(await server.request('DELETE', `/v1/keys/${issued.json.id}`), 404);
    assertProblem(await server.request('GET', '/v1/links', { key: issued.json.key }), 401);
    const after = await server.request('GET', '/v1/keys');
    const revoked = after.json.items.find((k: { id: string }) => k.id === issued.json.id);
    assert.equal(typeof revoked.revoked_at, 'string');
  });

  test('an admin key issued through the API can manage everything', async () => {
    const admin = await server.request('POST', '/v1/keys', { body: { owner: 'ops', admin: true } });
    assert.equal(admin.json.admin, true);
    assert.equal((await server.request('GET', '/v1/keys', { key: admin.json.key })).status, 200);
  });

  test('keys are stored hashed: the secret is nowhere in the database file', async () => {
    const issued = await server.request('POST', '/v1/keys', { body: { owner: 'secretive' } });
    await server.runtime.store.close();
    const files = ['hop.db', 'hop.db-wal'].map((name) => {
      try {
        return readFileSync(join(server.dataDir, name));
      } catch {
        return Buffer.alloc(0);
      }
    });
    for (const file of files) {
      assert.ok(!file.includes(issued.json.key as string));
      assert.ok(!file.includes(server.adminKey));
    }
  });
});

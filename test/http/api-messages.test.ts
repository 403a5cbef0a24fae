/**
 * What the API says when it refuses (issue 20, "Messages" and "Defaults said plainly"):
 * a field and its sentence apart, schema errors in words with the allowed values named, a
 * deleted link's alias, and `expires_at: null` (permanent) allowed or refused by HOP_MAX_TTL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const YEAR_MS = 365 * 86_400_000;

async function createLink(server: TestServer, body: Record<string, unknown>) {
  const created = await server.request('POST', '/v1/links', { body });
  assert.equal(created.status, 201, created.text);
  return created.json as { id: string; code: string; expires_at: string | null };
}

describe('refusals in words', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('links expire after 2 years by default', async () => {
    const link = await createLink(server, { destination: 'https://example.com/default-ttl' });
    assert.equal(link.expires_at, new Date(server.clock.now() + 2 * YEAR_MS).toISOString());
  });

  test('PATCH expires_at null under the default HOP_MAX_TTL: one sentence naming the setting', async () => {
    const link = await createLink(server, { destination: 'https://example.com/keep' });
    const response = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { expires_at: null },
    });
    assertProblem(response, 422, 'invalid-expiry');
    assert.equal(
      response.json.detail,
      'expires_at: null (never expire) is refused because HOP_MAX_TTL limits every link to 10 years; an operator may set HOP_MAX_TTL=0 to allow links that never expire.',
    );
    assert.equal(response.json.detail.split('. ').length, 1, 'one sentence');
    assert.deepEqual(
      response.json.errors.map((error: { field: string }) => error.field),
      ['expires_at'],
    );
    const unchanged = await server.request('GET', `/v1/links/${link.id}`);
    assert.equal(unchanged.json.expires_at, link.expires_at);
  });

  test('a field name is never glued to its sentence', async () => {
    const both = await server.request('POST', '/v1/links', {
      body: {
        destination: 'https://example.com/both',
        expires_at: '2030-01-01T00:00:00Z',
        ttl_seconds: 60,
      },
    });
    assertProblem(both, 422, 'invalid-expiry');
    assert.equal(both.json.detail, 'expires_at: give either expires_at or ttl_seconds, not both.');
    const past = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/past', expires_at: '2020-01-01T00:00:00Z' },
    });
    assert.equal(past.json.detail, 'expires_at: must lie in the future.');
  });

  test('a body that is not an object: "The request body must be a JSON object."', async () => {
    for (const rawBody of ['[]', '"text"', '7']) {
      const response = await server.request('POST', '/v1/links', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(response, 422, 'invalid-request');
      assert.equal(response.json.detail, 'The request body must be a JSON object.', rawBody);
    }
  });

  test('an enum names its allowed values', async () => {
    const state = await server.request('GET', '/v1/links?state=gone');
    assertProblem(state, 422, 'invalid-request');
    assert.equal(
      state.json.detail,
      'state: must be one of "active", "disabled", "expired", "deleted".',
    );
    const link = await createLink(server, { destination: 'https://example.com/qr' });
    const qr = await server.request('GET', `/v1/links/${link.id}/qr?format=gif`);
    assertProblem(qr, 422, 'invalid-request');
    assert.equal(qr.json.detail, 'format: must be one of "svg", "png".');
  });

  test('types, lengths and several problems at once, in words', async () => {
    const wrongType = await server.request('POST', '/v1/links', {
      body: { destination: 42 },
    });
    assert.equal(wrongType.json.detail, 'destination: must be a string.');
    const several = await server.request('POST', '/v1/links', {
      body: { title: 5, colour: 'red' },
    });
    assertProblem(several, 422, 'invalid-request');
    assert.match(several.json.detail, /^The request body has \d problems: /);
    assert.match(several.json.detail, /destination: is required/);
    assert.match(several.json.detail, /colour: is not a known field/);
  });

  test('the alias of a deleted link: it belonged to a deleted link and is never reused', async () => {
    const link = await createLink(server, {
      destination: 'https://example.com/was',
      alias: 'once-mine',
    });
    const deleted = await server.request('DELETE', `/v1/links/${link.id}`);
    assert.equal(deleted.status, 204);
    const again = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/again', alias: 'once-mine' },
    });
    assertProblem(again, 409, 'alias-taken');
    assert.equal(
      again.json.detail,
      'The alias "once-mine" belonged to a deleted link; an alias is never reused, so choose another.',
    );
    assert.equal(again.json.errors[0].field, 'alias');
    // A live alias is only "taken".
    await createLink(server, { destination: 'https://example.com/live', alias: 'live-alias' });
    const taken = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/other', alias: 'live-alias' },
    });
    assertProblem(taken, 409, 'alias-taken');
    assert.equal(taken.json.detail, 'The alias "live-alias" is already taken.');
  });
});

describe('PATCH expires_at null with HOP_MAX_TTL=0', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_MAX_TTL: '0' });
  });
  after(async () => {
    await server.close();
  });

  test('makes the link permanent: it still redirects long after its old expiry', async () => {
    const link = await createLink(server, { destination: 'https://example.com/forever' });
    assert.notEqual(link.expires_at, null, 'the default lifetime still applies at create');
    const patched = await server.request('PATCH', `/v1/links/${link.id}`, {
      body: { expires_at: null },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.expires_at, null);
    server.clock.advance(3 * YEAR_MS);
    const redirect = await server.request('GET', `/${link.code}`, { key: null });
    assert.equal(redirect.status, 302);
    assert.equal((await server.request('GET', `/v1/links/${link.id}`)).json.state, 'active');
  });
});

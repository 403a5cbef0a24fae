import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SMART_FIELD_NAMES } from '../../src/services/links/smart-link-fields.js';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('health, readiness and docs', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('/healthz and /readyz answer without a key', async () => {
    const health = await server.request('GET', '/healthz', { key: null });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, { status: 'ok' });
    const ready = await server.request('GET', '/readyz', { key: null });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.json, { status: 'ready' });
  });

  test('/openapi.json describes every v1 operation', async () => {
    const response = await server.request('GET', '/openapi.json', { key: null });
    assert.equal(response.status, 200);
    const spec = response.json;
    assert.match(spec.openapi, /^3\./);
    const operations = Object.entries(
      spec.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const expected of [
      'POST /v1/links',
      'GET /v1/links',
      'GET /v1/links/{id}',
      'PATCH /v1/links/{id}',
      'DELETE /v1/links/{id}',
      'POST /v1/links/{id}/disable',
      'POST /v1/links/{id}/enable',
      'POST /v1/keys',
      'GET /v1/keys',
      'DELETE /v1/keys/{id}',
      'GET /{code}',
      'GET /healthz',
      'GET /readyz',
    ]) {
      assert.ok(operations.includes(expected), `${expected} is documented`);
    }
    const create = spec.paths['/v1/links'].post;
    assert.ok(create.requestBody.content['application/json'].schema.properties.destination);
    assert.ok(create.responses['201']);
    // Problems under RFC 9457's media type, as they are sent.
    for (const status of ['401', '409', '422', '429']) {
      const content = create.responses[status].content;
      assert.deepEqual(Object.keys(content), ['application/problem+json'], status);
      assert.ok(content['application/problem+json'].schema.properties.type, status);
    }
    const analytics = spec.paths['/v1/links/{id}/analytics'].get;
    assert.deepEqual(Object.keys(analytics.responses['404'].content), ['application/problem+json']);
  });

  test('/openapi.json documents smart links and the password form (issue 21)', async () => {
    const spec = (await server.request('GET', '/openapi.json', { key: null })).json;
    const createBody = spec.paths['/v1/links'].post.requestBody.content['application/json'].schema;
    const patchBody =
      spec.paths['/v1/links/{id}'].patch.requestBody.content['application/json'].schema;
    for (const field of SMART_FIELD_NAMES) {
      assert.ok(createBody.properties[field]?.description, `create documents ${field}`);
      assert.ok(patchBody.properties[field], `PATCH documents ${field}`);
    }
    const shown = spec.paths['/v1/links/{id}'].get.responses['200'].content['application/json'];
    for (const field of ['rules', 'variants', 'password_protected', 'max_clicks', 'fallback_url']) {
      assert.ok(shown.schema.properties[field], `the link JSON shows ${field}`);
    }
    assert.equal(shown.schema.properties.password, undefined, 'the password is write-only');

    const follow = spec.paths['/{code}'].get;
    assert.ok(
      follow.parameters.some(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'x-link-password',
      ),
      'the X-Link-Password header',
    );
    assert.ok(follow.responses['200'].content['text/html'], 'the password form');
    assert.ok(follow.responses['302'].headers['set-cookie'], 'the pass cookie');
    for (const status of ['401', '404', '429']) {
      assert.ok(follow.responses[status].content['application/problem+json'], status);
    }

    const form = spec.paths['/{code}'].post;
    assert.ok(form, 'POST /{code} is documented');
    assert.equal(
      form.requestBody.content['application/x-www-form-urlencoded'].schema.properties.password.type,
      'string',
    );
    assert.ok(form.responses['302'].headers['set-cookie']);
    assert.deepEqual(Object.keys(form.responses).sort(), [
      '302',
      '401',
      '404',
      '413',
      '415',
      '429',
    ]);
    assert.ok(form.responses['401'].content['text/html']);
  });

  test('a form posted to a reserved word is the one 404; other routes still refuse forms', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const reserved = await server.request('POST', '/healthz', {
      key: null,
      headers: form,
      rawBody: 'password=secret',
    });
    assertProblem(reserved, 404, 'not-found');
    const api = await server.request('POST', '/v1/links', {
      headers: form,
      rawBody: 'destination=https%3A%2F%2Fexample.com%2F',
    });
    assertProblem(api, 415, 'unsupported-media-type');
  });

  test('/metrics counts redirects by outcome and L1 hits', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/metered' },
    });
    const code = created.json.code as string;
    await server.request('GET', `/${code}`, { key: null }); // L1 hit: creates write through
    await server.request('GET', '/NoSuchOne', { key: null }); // store read, not found
    await server.request('GET', '/NoSuchOne', { key: null }); // L1 negative entry
    await server.request('GET', '/a!', { key: null }); // impossible code
    const response = await server.request('GET', '/metrics', { key: null });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const count = (outcome: string) =>
      Number(
        new RegExp(
          `^hop_redirect_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)$`,
          'm',
        ).exec(response.text)?.[1],
      );
    assert.equal(count('l1'), 1);
    assert.equal(count('not_found'), 2);
    assert.equal(count('invalid'), 1);
    assert.match(response.text, /^hop_l1_requests_total\{result="hit"\} 2$/m);
    assert.match(response.text, /^hop_l1_requests_total\{result="miss"\} 1$/m);
    assert.match(response.text, /^hop_coalesced_reads_total 0$/m);
    assert.match(response.text, /^hop_l1_entries 2$/m);
    assert.match(response.text, /^hop_process_resident_memory_bytes \d+/m);
  });

  test('/docs is a browsable page', async () => {
    const response = await server.request('GET', '/docs', { key: null });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(response.text, /swagger/i);
  });

  test('/readyz is 503 when the store does not answer', async () => {
    await server.runtime.store.close();
    assertProblem(await server.request('GET', '/readyz', { key: null }), 503, 'store-unavailable');
    const create = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/' },
    });
    assert.equal(create.status, 503);
    assert.ok(create.headers.get('retry-after'));
    const redirect = await server.request('GET', '/Anything1', { key: null });
    assert.equal(redirect.status, 503, 'a store failure is never reported as not found');
  });
});

import assert from 'node:assert/strict';
import type { TestResponse } from './test-server.js';

/** Asserts an RFC 9457 problem response with this status (and kind, when given). */
export function assertProblem(response: TestResponse, status: number, kind?: string): void {
  assert.equal(
    response.status,
    status,
    `expected ${status}, got ${response.status}: ${response.text}`,
  );
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = response.json;
  assert.equal(typeof body, 'object');
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.match(body.type, /^urn:hop:problem:[a-z-]+$/);
  if (kind !== undefined) assert.equal(body.type, `urn:hop:problem:${kind}`);
}

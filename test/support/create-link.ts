import assert from 'node:assert/strict';
import type { TestServer } from './test-server.js';

/** Creates a link through the API with the admin key; fails the test unless it is a 201. */
export async function createLink(
  server: TestServer,
  body: Record<string, unknown>,
): Promise<{ id: string; code: string; destination: string }> {
  const response = await server.request('POST', '/v1/links', { body });
  assert.equal(response.status, 201, response.text);
  return response.json as { id: string; code: string; destination: string };
}

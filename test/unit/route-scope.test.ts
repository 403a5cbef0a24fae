import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { requireRouteScopes } from '../../src/http/route-scope.js';

test('an API route that names no scope fails the start instead of opening to every key', async () => {
  const app = Fastify();
  await assert.rejects(
    async () => {
      await app.register(async (api) => {
        requireRouteScopes(api);
        api.get('/v1/scoped', { config: { scope: 'links:read' } }, async () => ({}));
        api.get('/v1/open', async () => ({}));
      });
    },
    { message: /GET \/v1\/open names no config\.scope/ },
  );
  await app.close();
});

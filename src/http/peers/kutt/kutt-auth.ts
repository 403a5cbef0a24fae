import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isHopError } from '../../../domain/errors.js';
import { authenticateKey } from '../../../services/keys/authenticate.js';
import type { KeyServiceDeps } from '../../../services/keys/key-service-deps.js';
import { assertRouteScope } from '../../route-scope.js';
import { KuttRefusal, UNAUTHORIZED } from './kutt-errors.js';

/** Longer than any key hop issues: refused without a lookup. */
const MAX_KEY_LENGTH = 512;

/** The key as Kutt takes it (`X-API-KEY`, passport.js); the Kutt client sends `X-API-Key`. */
export function kuttKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && key !== '' && key.length <= MAX_KEY_LENGTH ? key : undefined;
}

/**
 * Every route of `api` needs a key: a missing, unknown, revoked or expired one is Kutt's
 * 401 `{"error":"Unauthorized."}`; then the route's scope is checked as /v1 checks it.
 */
export function requireKuttKey(api: FastifyInstance, keys: KeyServiceDeps): void {
  api.decorateRequest('principal', null);
  api.addHook('onRequest', async (request) => {
    const key = kuttKeyOf(request);
    if (key === undefined) throw new KuttRefusal(401, UNAUTHORIZED);
    try {
      request.principal = await authenticateKey(keys, key);
    } catch (error) {
      if (isHopError(error) && error.kind === 'unauthorized') {
        throw new KuttRefusal(401, UNAUTHORIZED);
      }
      throw error;
    }
    assertRouteScope(request);
  });
}

import type { FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the v1 authentication hook; null outside the authenticated scope. */
    principal: Principal | null;
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('route is outside the authenticated scope');
  return request.principal;
}

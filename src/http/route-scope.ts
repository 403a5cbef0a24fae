import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertScope, type Scope } from '../domain/principal.js';
import { principalOf } from './principal-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an authenticated route needs (issue 22, ADR 0118). */
    scope?: Scope;
  }
}

/**
 * Every route of `api` must name the scope it needs in `config.scope`: one added without
 * one fails at start, rather than being open to every key.
 */
export function requireRouteScopes(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    const scope = route.config?.scope;
    if (scope === undefined) {
      throw new Error(
        `${String(route.method)} ${route.url} names no config.scope: every /v1 route needs one (src/http/route-scope.ts).`,
      );
    }
    // The OpenAPI document says it too (bearer schemes carry no scopes of their own).
    const schema = route.schema as { description?: string } | undefined;
    if (schema !== undefined && schema.description?.startsWith('Needs the scope') !== true) {
      schema.description = `Needs the scope \`${scope}\`${schema.description === undefined ? '.' : `. ${schema.description}`}`;
    }
  });
}

/**
 * Throws `insufficient-scope` unless the caller's key holds the scope its route names: one
 * check for every route, before the body is even read. Requests that reached no route
 * (a 404) name none.
 */
export function assertRouteScope(request: FastifyRequest): void {
  const scope = request.routeOptions.config.scope;
  if (scope !== undefined) assertScope(principalOf(request), scope);
}

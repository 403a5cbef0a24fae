import type { FastifyInstance } from 'fastify';
import type { Link } from '../../../domain/link.js';
import { updateLink } from '../../../services/links/update-link.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { hopRulesOf, shlinkRulesOf } from './redirect-rule-mapping.js';
import { shortUrlOfRequest } from './shlink-links.js';
import { versioned } from './shlink-paths.js';

type Query = Record<string, unknown>;

function rulesJson(link: Link) {
  return {
    defaultLongUrl: link.destination,
    redirectRules: shlinkRulesOf(link.smart?.rules ?? []),
  };
}

/** A short URL's redirect rules: Shlink's conditions as hop's smart rules (issue 21). */
export function registerRedirectRuleRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of versioned('/short-urls/:shortCode/redirect-rules')) {
    app.get<{ Params: { shortCode: string }; Querystring: Query }>(
      path,
      { config: { scope: 'links:read' } },
      async (request) => rulesJson(await shortUrlOfRequest(deps, request)),
    );

    app.post<{ Params: { shortCode: string }; Querystring: Query }>(
      path,
      { config: { scope: 'links:write' } },
      async (request) => {
        const rules = hopRulesOf(request.body);
        const principal = principalOf(request);
        const link = await shortUrlOfRequest(deps, request);
        // Only the rules are replaced: variants, a password or a fallback stay as they are.
        return rulesJson(
          await updateLink(deps.linkService, principal, link.id, { smart: { rules } }),
        );
      },
    );
  }
}

import type { FastifyInstance } from 'fastify';
import { listDomains } from '../../../services/domains/list-domains.js';
import type { DomainView } from '../../../services/domains/domain-view.js';
import type { AppDeps } from '../../app-deps.js';
import { outsideOpenApi } from './outside-openapi.js';
import { principalOf } from '../../principal-of.js';
import { kuttKeyOf } from './kutt-auth.js';

/** A domain as Kutt's `utils.sanitize.domain` shows it. */
interface KuttDomainJson {
  address: string;
  banned: boolean;
  created_at: string;
  /** Kutt's is a UUID; hop names a domain by its host. */
  id: string;
  homepage: string | null;
  updated_at: string;
}

/**
 * `GET /users` (users.handler.js `get`): Kutt returns the stored key and the account's
 * email. hop keeps only hashes of keys and has no accounts: the key the caller sent is
 * echoed, and the key's owner stands for the email (ADR 0134).
 */
export function registerKuttUserRoutes(api: FastifyInstance, deps: AppDeps): void {
  api.get(
    '/users',
    { schema: outsideOpenApi(), config: { scope: 'links:read' } },
    async (request) => {
      const principal = principalOf(request);
      const domains = await listDomains(deps.domainService, principal);
      return {
        apikey: kuttKeyOf(request) ?? '',
        email: principal.owner,
        // Kutt lists a user's own custom domains; hop's default domain is everyone's.
        domains: domains.filter((domain) => !domain.isDefault).map(kuttDomainJson),
      };
    },
  );
}

function kuttDomainJson(domain: DomainView): KuttDomainJson {
  return {
    address: domain.host,
    banned: false,
    created_at: new Date(domain.createdAt).toISOString(),
    id: domain.host,
    homepage: domain.rootRedirect,
    updated_at: new Date(domain.updatedAt).toISOString(),
  };
}

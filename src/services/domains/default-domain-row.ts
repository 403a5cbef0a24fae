import { DEFAULT_DOMAIN, type LinkDomain } from '../../domain/link-domain.js';
import type { DomainServiceDeps } from './domain-service-deps.js';

/**
 * The default domain's row (stored host `''`), made the first time it is asked for: the
 * default domain always exists, and its redirects are kept like any other's (ADR 0117).
 * Two callers racing both end with the one row the store kept.
 */
export async function defaultDomainRow(deps: DomainServiceDeps): Promise<LinkDomain> {
  const stored = await deps.domains.findDomain(DEFAULT_DOMAIN);
  if (stored !== null) return stored;
  const now = deps.clock.now();
  const made: LinkDomain = {
    host: DEFAULT_DOMAIN,
    rootRedirect: null,
    notFoundRedirect: null,
    https: deps.defaultHttps,
    createdAt: now,
    updatedAt: now,
  };
  if (await deps.domains.insertDomain(made)) return made;
  return (await deps.domains.findDomain(DEFAULT_DOMAIN)) ?? made;
}

import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import { assertScope, canUseDomain, type Principal } from '../../domain/principal.js';
import { defaultDomainRow } from './default-domain-row.js';
import type { DomainServiceDeps } from './domain-service-deps.js';
import { domainViewOf, type DomainView } from './domain-view.js';

/** Every domain the key may use: the default first, then the others by host (issue 22). */
export async function listDomains(
  deps: DomainServiceDeps,
  principal: Principal,
): Promise<readonly DomainView[]> {
  assertScope(principal, 'links:read');
  const stored = await deps.domains.listDomains();
  const others = stored.filter(
    (domain) => domain.host !== DEFAULT_DOMAIN && canUseDomain(principal, domain.host),
  );
  const views = others.map((domain) => domainViewOf(deps, domain));
  if (!canUseDomain(principal, DEFAULT_DOMAIN)) return views;
  // The list holds the default's row once it is stored; it is made only the first time.
  const defaultRow =
    stored.find((domain) => domain.host === DEFAULT_DOMAIN) ?? (await defaultDomainRow(deps));
  return [domainViewOf(deps, defaultRow), ...views];
}

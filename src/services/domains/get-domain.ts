import { assertScope, type Principal } from '../../domain/principal.js';
import type { DomainServiceDeps } from './domain-service-deps.js';
import { domainViewOf, type DomainView } from './domain-view.js';
import { findVisibleDomainOrThrow } from './find-visible-domain.js';

/** One domain by its host (the host of HOP_PUBLIC_URL names the default). */
export async function getDomain(
  deps: DomainServiceDeps,
  principal: Principal,
  host: string,
): Promise<DomainView> {
  assertScope(principal, 'links:read');
  return domainViewOf(deps, await findVisibleDomainOrThrow(deps, principal, host));
}

import { HopError } from '../../domain/errors.js';
import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import type { DomainServiceDeps } from './domain-service-deps.js';
import { findVisibleDomainOrThrow } from './find-visible-domain.js';

/**
 * Deletes a domain no link uses, in any state, tombstones included: a short URL on it may
 * still be printed somewhere. The default domain always exists (issue 22).
 */
export async function deleteDomain(
  deps: DomainServiceDeps,
  principal: Principal,
  host: string,
): Promise<void> {
  assertScope(principal, 'domains:write');
  const stored = await findVisibleDomainOrThrow(deps, principal, host);
  if (stored.host === DEFAULT_DOMAIN) {
    throw new HopError('domain-in-use', 'The default domain (of HOP_PUBLIC_URL) always exists.');
  }
  const result = await deps.domains.deleteDomain(stored.host);
  if (result === 'not-found') throw new HopError('not-found', 'No domain with this host.');
  if (result === 'in-use') {
    throw new HopError(
      'domain-in-use',
      `Links use ${stored.host} (deleted ones too, until they are purged); it stays.`,
    );
  }
  await deps.events.domainsChanged();
}

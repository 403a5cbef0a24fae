import { HopError } from '../../domain/errors.js';
import { DEFAULT_DOMAIN, type LinkDomain } from '../../domain/link-domain.js';
import { canUseDomain, type Principal } from '../../domain/principal.js';
import { defaultDomainRow } from './default-domain-row.js';
import { storedHostOf } from './domain-fields.js';
import type { DomainServiceDeps } from './domain-service-deps.js';

/**
 * The stored domain `given` names, or `not-found`: for a host that is none, one that does
 * not exist, and one outside the key's domains alike (issue 22: as if it did not exist).
 */
export async function findVisibleDomainOrThrow(
  deps: DomainServiceDeps,
  principal: Principal,
  given: string,
): Promise<LinkDomain> {
  const host = storedHostOf(deps, given);
  const found =
    host === null || !canUseDomain(principal, host)
      ? null
      : host === DEFAULT_DOMAIN
        ? await defaultDomainRow(deps)
        : await deps.domains.findDomain(host);
  if (found === null) throw new HopError('not-found', 'No domain with this host.');
  return found;
}

import { HopError, type FieldProblem } from '../../domain/errors.js';
import { DEFAULT_DOMAIN, type LinkDomain } from '../../domain/link-domain.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import { checkDomainRedirects, type DomainRedirects } from './domain-fields.js';
import type { DomainServiceDeps } from './domain-service-deps.js';
import { domainViewOf, type DomainView } from './domain-view.js';
import { findVisibleDomainOrThrow } from './find-visible-domain.js';

export interface DomainPatch extends DomainRedirects {
  readonly https?: boolean | undefined;
}

/**
 * Changes a domain's redirects or scheme; a field left out keeps its value, null removes a
 * redirect. The default domain's scheme is HOP_PUBLIC_URL's and cannot be changed here.
 */
export async function updateDomain(
  deps: DomainServiceDeps,
  principal: Principal,
  host: string,
  patch: DomainPatch,
): Promise<DomainView> {
  assertScope(principal, 'domains:write');
  const stored = await findVisibleDomainOrThrow(deps, principal, host);
  const isDefault = stored.host === DEFAULT_DOMAIN;
  const problems: FieldProblem[] = [];
  if (isDefault && patch.https !== undefined && patch.https !== deps.defaultHttps) {
    problems.push({
      field: 'https',
      detail: "The default domain's scheme is HOP_PUBLIC_URL's; change that instead.",
    });
  }
  const ownHost = isDefault ? deps.defaultHost : stored.host;
  const redirects = checkDomainRedirects(deps, ownHost, patch, problems);
  const changed: LinkDomain = {
    ...stored,
    ...redirects,
    https: isDefault ? stored.https : (patch.https ?? stored.https),
    updatedAt: deps.clock.now(),
  };
  if (!(await deps.domains.updateDomain(changed))) {
    throw new HopError('not-found', 'No domain with this host.');
  }
  await deps.events.domainsChanged();
  return domainViewOf(deps, changed);
}

import type { Link } from '../../domain/link.js';
import { DEFAULT_DOMAIN, storedDomainOf } from '../../domain/link-domain.js';
import type { Principal } from '../../domain/principal.js';
import { findVisibleLinkOrThrow } from './find-visible-link.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/** The link named by id, or by code on the domain `host` names (the default without one). */
export function getLink(
  deps: LinkServiceDeps,
  principal: Principal,
  id: string,
  host?: string,
): Promise<Link> {
  const domain = host === undefined ? DEFAULT_DOMAIN : storedDomainOf(host, deps.defaultHost);
  return findVisibleLinkOrThrow(deps.links, principal, id, domain);
}

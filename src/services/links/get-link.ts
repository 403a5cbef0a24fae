import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import { findVisibleLinkOrThrow } from './find-visible-link.js';
import type { LinkServiceDeps } from './link-service-deps.js';

export function getLink(deps: LinkServiceDeps, principal: Principal, id: string): Promise<Link> {
  return findVisibleLinkOrThrow(deps.links, principal, id);
}

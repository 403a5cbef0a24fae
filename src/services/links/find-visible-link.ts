import { isLinkIdShaped } from '../../domain/alias-rules.js';
import { isPossibleCode } from '../../domain/code-format.js';
import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import { canSeeLinkOf, canUseDomain, type Principal } from '../../domain/principal.js';
import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import type { LinkRepository } from '../../ports/link-repository.js';

export type LinkLookups = Pick<LinkRepository, 'findLinkById' | 'findLinkByCode'>;

/**
 * The link named by its id or its code, if the caller may see it (ADR 0101). An id is
 * looked up first: ids are made by hop and never chosen by anyone, and an alias may not
 * have an id's shape, so a name is one or the other and an id always means its own link.
 * Another owner's link and a deleted one are `not-found`, exactly like an unknown name, so
 * neither ids nor codes can be probed (SPEC §3).
 */
export async function findVisibleLinkOrThrow(
  links: LinkLookups,
  principal: Principal,
  idOrCode: string,
  /** The stored host whose code `idOrCode` may be (issue 22); the default domain's if absent. */
  domain: string = DEFAULT_DOMAIN,
): Promise<Link> {
  if (isLinkIdShaped(idOrCode)) {
    const byId = await links.findLinkById(idOrCode);
    if (isVisibleTo(principal, byId)) return byId;
  }
  if (isPossibleCode(idOrCode)) {
    const byCode = await links.findLinkByCode(domain, idOrCode);
    if (isVisibleTo(principal, byCode)) return byCode;
  }
  // The same words for every miss: what is answered must not tell them apart.
  throw new HopError('not-found', 'No link has this id or code.');
}

/**
 * True for a link the caller may see: not deleted, theirs or the caller an admin, and on a
 * domain the caller's key may use (issue 22).
 */
export function isVisibleTo(principal: Principal, link: Link | null): link is Link {
  return (
    link !== null &&
    link.state !== 'deleted' &&
    canSeeLinkOf(principal, link.owner) &&
    canUseDomain(principal, link.domain)
  );
}

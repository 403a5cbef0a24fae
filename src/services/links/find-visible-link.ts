import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import { canSeeLinkOf, type Principal } from '../../domain/principal.js';
import type { LinkRepository } from '../../ports/link-repository.js';

/**
 * The link with this id if the caller may see it. Another owner's link and a deleted one
 * are both `not-found`, exactly like an unknown id, so ids cannot be probed (SPEC §3).
 */
export async function findVisibleLinkOrThrow(
  links: Pick<LinkRepository, 'findLinkById'>,
  principal: Principal,
  id: string,
): Promise<Link> {
  const link = await links.findLinkById(id);
  if (!isVisibleTo(principal, link)) throw new HopError('not-found', 'No link with this id.');
  return link;
}

/** True for a link the caller may see: not deleted, and theirs or the caller an admin. */
export function isVisibleTo(principal: Principal, link: Link | null): link is Link {
  return link !== null && link.state !== 'deleted' && canSeeLinkOf(principal, link.owner);
}

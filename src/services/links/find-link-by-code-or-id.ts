import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import { canSeeLinkOf, type Principal } from '../../domain/principal.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/**
 * The link an operator names by its code or its id. The code is tried first, since that
 * is what people see and type; a deleted link or another owner's is `not-found`, like an
 * unknown one (SPEC §3).
 */
export async function findLinkByCodeOrIdOrThrow(
  deps: LinkServiceDeps,
  principal: Principal,
  codeOrId: string,
): Promise<Link> {
  const isVisible = (link: Link | null): link is Link =>
    link !== null && link.state !== 'deleted' && canSeeLinkOf(principal, link.owner);
  const byCode = await deps.links.findLinkByCode(codeOrId);
  if (isVisible(byCode)) return byCode;
  const byId = await deps.links.findLinkById(codeOrId);
  if (isVisible(byId)) return byId;
  throw new HopError('not-found', `No link has the code or id ${JSON.stringify(codeOrId)}.`);
}

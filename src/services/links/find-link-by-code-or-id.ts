import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import { isVisibleTo } from './find-visible-link.js';
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
  const byCode = await deps.links.findLinkByCode(codeOrId);
  if (isVisibleTo(principal, byCode)) return byCode;
  const byId = await deps.links.findLinkById(codeOrId);
  if (isVisibleTo(principal, byId)) return byId;
  throw new HopError('not-found', `No link has the code or id ${JSON.stringify(codeOrId)}.`);
}

import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import { findVisibleLinkOrThrow } from './find-visible-link.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/**
 * The link an operator names by its code or its id: the API's lookup (ADR 0101), so `hop
 * links …` and `/v1/links/{id}` never disagree on which link a name means. The operator
 * typed the name at a shell, so the refusal repeats it (the API's does not: SPEC §3).
 */
export async function findLinkByCodeOrIdOrThrow(
  deps: LinkServiceDeps,
  principal: Principal,
  codeOrId: string,
): Promise<Link> {
  try {
    return await findVisibleLinkOrThrow(deps.links, principal, codeOrId);
  } catch (error) {
    if (!(error instanceof HopError) || error.kind !== 'not-found') throw error;
    throw new HopError('not-found', `No link has the code or id ${JSON.stringify(codeOrId)}.`);
  }
}

import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { replaceLinkWith } from './replace-link-with.js';

/** Stops a link from redirecting; disabling a disabled link changes nothing. */
export function disableLink(
  deps: LinkServiceDeps,
  principal: Principal,
  id: string,
): Promise<Link> {
  return replaceLinkWith(deps, principal, id, (current) =>
    current.state === 'disabled' ? null : { ...current, state: 'disabled' },
  );
}

/**
 * Lets a disabled link redirect again. An expired link stays expired: only a new
 * `expires_at` (PATCH) gives it more life.
 */
export function enableLink(deps: LinkServiceDeps, principal: Principal, id: string): Promise<Link> {
  return replaceLinkWith(deps, principal, id, (current) =>
    current.state === 'disabled' ? { ...current, state: 'active' } : null,
  );
}

/**
 * Deletes a link, leaving a tombstone row: its code stays taken (custom aliases forever,
 * SPEC §2) and the API answers 404 for it from now on.
 */
export async function deleteLink(
  deps: LinkServiceDeps,
  principal: Principal,
  id: string,
): Promise<void> {
  await replaceLinkWith(deps, principal, id, (current, nowMs) => ({
    ...current,
    state: 'deleted',
    deletedAt: nowMs,
  }));
}

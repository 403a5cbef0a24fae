import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import { findVisibleLinkOrThrow } from './find-visible-link.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/** A change to a link: the next link, or null when nothing would change. */
export type LinkChange = (current: Link, nowMs: number) => Link | null;

const MAX_CHANGE_ATTEMPTS = 5;

/**
 * Applies `change` with compare-and-set on `version`, re-reading and retrying if another
 * writer got there first, so concurrent edits never lose one another. The version grows
 * by one with each real change; a change that changes nothing writes nothing. `read`: the
 * link as the caller just read it (visible to `principal`), tried first instead of a read.
 */
export async function replaceLinkWith(
  deps: LinkServiceDeps,
  principal: Principal,
  id: string,
  change: LinkChange,
  read?: Link,
): Promise<Link> {
  for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
    const current =
      attempt === 0 && read !== undefined
        ? read
        : await findVisibleLinkOrThrow(deps.links, principal, id);
    const now = deps.clock.now();
    const changed = change(current, now);
    if (changed === null) return current;
    const next: Link = { ...changed, updatedAt: now, version: current.version + 1 };
    if (await deps.links.replaceLink(next, current.version)) {
      deps.events.linkChanged(next);
      return next;
    }
  }
  throw new HopError('store-unavailable', 'The link is being changed by others; try again.', {
    retryable: true,
    retryAfterSeconds: 1,
  });
}

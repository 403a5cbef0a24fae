import type { Link } from '../../../domain/link.js';
import { assertScope, type Principal } from '../../../domain/principal.js';
import { deleteLink, disableLink, enableLink } from '../change-link-state.js';
import { getLink } from '../get-link.js';
import type { LinkServiceDeps } from '../link-service-deps.js';
import { updateLink, type UpdateLinkInput } from '../update-link.js';
import { runItems, type ItemOutcome } from './run-items.js';

/**
 * Links changed at once by one bulk call. Each change is its own compare-and-set: on
 * PostgreSQL a few connections of the pool, never all of it; on SQLite it changes nothing.
 */
const CHANGE_CONCURRENCY = 4;

/** A bulk PATCH's change (issue 22): the fields of a PATCH, tags added or removed, a state. */
export interface BulkPatch extends Pick<
  UpdateLinkInput,
  'destination' | 'expiresAt' | 'tags' | 'addTags' | 'removeTags'
> {
  readonly state?: 'active' | 'disabled' | undefined;
}

/**
 * Changes each link as a PATCH of it would, then enables or disables it as those calls
 * would (ADR 0120): two writes when both are asked, each announced as a single call's.
 * A link the key may not see is that item's `not-found`. The same id twice is changed
 * twice, one after the other.
 */
export async function patchLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  ids: readonly string[],
  patch: BulkPatch,
): Promise<readonly ItemOutcome<Link>[]> {
  assertScope(principal, 'links:write');
  const { state, ...fields } = patch;
  const changesFields = Object.values(fields).some((value) => value !== undefined);
  return runItems(ids, {
    concurrency: CHANGE_CONCURRENCY,
    keyOf: (id) => id,
    run: async (id) => {
      const updated = changesFields ? await updateLink(deps, principal, id, fields) : null;
      const target = updated?.id ?? id;
      if (state === 'active') return enableLink(deps, principal, target);
      if (state === 'disabled') return disableLink(deps, principal, target);
      // Nothing asked (the schema refuses such a patch): the link as it is, or its not-found.
      return updated ?? getLink(deps, principal, id);
    },
  });
}

/** Deletes each link as DELETE of it would; one the key may not see is its `not-found`. */
export async function deleteLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  ids: readonly string[],
): Promise<readonly ItemOutcome<undefined>[]> {
  assertScope(principal, 'links:write');
  return runItems(ids, {
    concurrency: CHANGE_CONCURRENCY,
    keyOf: (id) => id,
    run: async (id) => {
      await deleteLink(deps, principal, id);
      return undefined;
    },
  });
}

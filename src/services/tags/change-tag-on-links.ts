import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import { isTagName } from '../../domain/link-fields.js';
import type { Principal } from '../../domain/principal.js';
import type { LinkServiceDeps } from '../links/link-service-deps.js';
import { replaceLinkWith } from '../links/replace-link-with.js';
import { visibleLinksOf } from './visible-links.js';

/** A link's tags after the change, or null when the link needs none. */
export type TagsChange = (tags: readonly string[]) => readonly string[] | null;

/** Links read and changed a page at a time: bounded memory whatever the tag's size. */
const CHANGE_PAGE_SIZE = 100;

/**
 * Applies `change` to every link the caller can see that carries `name`, each as an edit
 * is applied: compare-and-set on its version, version + 1, caches and the change feed told
 * (ADR 0119). `not-found` when no such link exists (a name no tag can have included).
 */
export async function changeTagOnLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  name: string,
  change: TagsChange,
): Promise<void> {
  if (!isTagName(name)) throw tagNotFound();
  let beforeId: string | undefined;
  let seen = 0;
  for (;;) {
    const page = await deps.links.listLinks({
      ...visibleLinksOf(principal),
      tags: [name],
      beforeId,
      limit: CHANGE_PAGE_SIZE,
      nowMs: deps.clock.now(),
    });
    seen += page.length;
    for (const link of page) await changeOne(deps, principal, link, change);
    const last = page.at(-1);
    if (page.length < CHANGE_PAGE_SIZE || last === undefined) break;
    // Newest first by id: a link changed (or created) meanwhile is never read twice.
    beforeId = last.id;
  }
  if (seen === 0) throw tagNotFound();
}

/** One write for a link nobody changed since the page was read; else the edit's retries. */
async function changeOne(
  deps: LinkServiceDeps,
  principal: Principal,
  link: Link,
  change: TagsChange,
): Promise<void> {
  const withTags = (current: Link): Link | null => {
    const tags = change(current.tags);
    return tags === null ? null : { ...current, tags };
  };
  try {
    await replaceLinkWith(deps, principal, link.id, withTags, link);
  } catch (error) {
    // Deleted meanwhile: it carries no tag any more.
    if (!(error instanceof HopError && error.kind === 'not-found')) throw error;
  }
}

function tagNotFound(): HopError {
  return new HopError('not-found', 'No link this key can see has this tag.');
}

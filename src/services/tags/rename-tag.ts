import { assertValidTag } from '../../domain/link-fields.js';
import { renameTagIn } from '../../domain/link-tags.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import { changeTagOnLinks } from './change-tag-on-links.js';
import type { TagServiceDeps } from './tag-service-deps.js';
import { visibleLinksOf } from './visible-links.js';

export interface RenamedTag {
  readonly name: string;
  /** Links the caller can see that carry the new name now, merged ones included. */
  readonly links: number;
}

/**
 * Renames a tag on every link the caller can see; where a link already has the new name,
 * the two merge into one (ADR 0119). Renaming a tag to its own name changes nothing.
 */
export async function renameTag(
  deps: TagServiceDeps,
  principal: Principal,
  name: string,
  newName: string,
): Promise<RenamedTag> {
  assertScope(principal, 'links:write');
  assertValidTag(newName, 'name');
  await changeTagOnLinks(deps.links, principal, name, (tags) =>
    newName === name ? null : renameTagIn(tags, name, newName),
  );
  const [renamed] = await deps.tags.listTags({
    ...visibleLinksOf(principal),
    name: newName,
    limit: 1,
  });
  return { name: newName, links: renamed?.links ?? 0 };
}

import { removeTagFrom } from '../../domain/link-tags.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import { changeTagOnLinks } from './change-tag-on-links.js';
import type { TagServiceDeps } from './tag-service-deps.js';

/** Takes a tag off every link the caller can see; the links stay as they are otherwise. */
export async function deleteTag(
  deps: TagServiceDeps,
  principal: Principal,
  name: string,
): Promise<void> {
  assertScope(principal, 'links:write');
  await changeTagOnLinks(deps.links, principal, name, (tags) => removeTagFrom(tags, name));
}

import { resolveExpiryChange } from '../../domain/expiry.js';
import type { Link } from '../../domain/link.js';
import { assertValidTag, normaliseTags, normaliseTitle } from '../../domain/link-fields.js';
import type { Principal } from '../../domain/principal.js';
import {
  smartOptionsAfter,
  checkSmartFields,
  destinationWithUtm,
  newPasswordHash,
  type SmartFields,
} from './smart-link-fields.js';
import { checkDestinationOrThrow } from './check-destination-or-throw.js';
import { checkPreview } from './check-preview.js';
import { checkStatusCodeOrThrow } from './check-status-code-or-throw.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { replaceLinkWith } from './replace-link-with.js';

/** Fields a PATCH may change (SPEC §3); absent fields stay as they are. */
export interface UpdateLinkInput {
  readonly destination?: string | undefined;
  readonly statusCode?: number | undefined;
  /** A new expiry, or null for none (only when lifetimes are unbounded). */
  readonly expiresAt?: string | null | undefined;
  readonly title?: string | null | undefined;
  readonly tags?: readonly string[] | undefined;
  /** Tags added to the link's own (bulk PATCH, issue 22); after `tags` when both are given. */
  readonly addTags?: readonly string[] | undefined;
  /** Tags taken from the link's own (bulk PATCH, issue 22), after `addTags`. */
  readonly removeTags?: readonly string[] | undefined;
  /** Rules, variants, password, limit, fallback, forwarding and UTM, as the API spells them. */
  readonly smart?: SmartFields | undefined;
  /** A new preview as the API spells it, unchecked (replacing the whole); null removes it. */
  readonly preview?: unknown;
  readonly crawlable?: boolean | undefined;
}

/** Edits a link and bumps its version. Validation runs before anything is written. */
export async function updateLink(
  deps: LinkServiceDeps,
  principal: Principal,
  id: string,
  input: UpdateLinkInput,
): Promise<Link> {
  const now = deps.clock.now();
  const destination =
    input.destination === undefined
      ? undefined
      : checkDestinationOrThrow(input.destination, deps.destinationPolicy);
  const statusCode =
    input.statusCode === undefined ? undefined : checkStatusCodeOrThrow(input.statusCode);
  const expiresAt =
    input.expiresAt === undefined
      ? undefined
      : resolveExpiryChange(input.expiresAt, now, deps.expiryPolicy);
  const title = input.title === undefined ? undefined : normaliseTitle(input.title);
  const tags = input.tags === undefined ? undefined : normaliseTags(input.tags);
  const tagsOf = tagEdit(input.addTags, input.removeTags);
  const smartInput = input.smart === undefined ? undefined : checkSmartFields(input.smart, deps);
  const preview = input.preview === undefined ? undefined : checkPreview(input.preview, deps);
  // Hashed once, before the compare-and-set that may run the change more than once.
  const passwordHash = await newPasswordHash(smartInput);
  const smartOf = (current: Link) =>
    smartInput === undefined
      ? current.smart
      : smartOptionsAfter(current.smart, smartInput, passwordHash);

  return replaceLinkWith(deps, principal, id, (current) => {
    // A link the sweeper marked expired becomes active again when given a new future expiry.
    const revived = expiresAt !== undefined && current.state === 'expired';
    return {
      ...current,
      destination: destinationWithUtm(destination ?? current.destination, smartInput, deps),
      statusCode: statusCode ?? current.statusCode,
      expiresAt: expiresAt === undefined ? current.expiresAt : expiresAt,
      title: title === undefined ? current.title : title,
      tags: tagsOf(tags ?? current.tags),
      state: revived ? 'active' : current.state,
      smart: smartOf(current),
      preview: preview === undefined ? current.preview : preview,
      crawlable: input.crawlable ?? current.crawlable,
    };
  });
}

/**
 * The tags after adding and removing some, applied to the link as read inside the
 * compare-and-set, so edits of one link's tags at once never lose each other. The result
 * is checked as a PATCH's `tags` is (at most MAX_TAGS).
 */
function tagEdit(
  add: readonly string[] | undefined,
  remove: readonly string[] | undefined,
): (tags: readonly string[]) => readonly string[] {
  if (add === undefined && remove === undefined) return (tags) => tags;
  for (const tag of add ?? []) assertValidTag(tag, 'add_tags');
  for (const tag of remove ?? []) assertValidTag(tag, 'remove_tags');
  const removed = new Set(remove);
  return (tags) => normaliseTags([...tags, ...(add ?? [])].filter((tag) => !removed.has(tag)));
}

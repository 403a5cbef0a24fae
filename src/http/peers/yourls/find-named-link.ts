import { isHopError } from '../../../domain/errors.js';
import type { Link } from '../../../domain/link.js';
import { assertScope } from '../../../domain/principal.js';
import { getLink } from '../../../services/links/get-link.js';
import { keywordOf } from './short-url-keyword.js';
import type { YourlsCall } from './yourls-call.js';

export interface NamedLink {
  /** The keyword as the caller named it (YOURLS echoes it when nothing is found). */
  readonly keyword: string;
  /** The link the caller may see, or null: unknown, deleted, or not the caller's. */
  readonly link: Link | null;
}

/**
 * The link `shorturl` names (a full short URL or a bare keyword on the call's domain),
 * through /v1's own lookup, which judges the keyword: imported keywords of any length the
 * link rules allow are found, and nothing else is checked here.
 */
export async function findNamedLink(call: YourlsCall): Promise<NamedLink> {
  assertScope(call.principal, 'links:read');
  const { keyword, host } = keywordOf(call.params.get('shorturl') ?? '');
  if (keyword === '') return { keyword, link: null };
  try {
    const link = await getLink(call.deps.linkService, call.principal, keyword, host ?? call.host);
    // /v1's lookup also takes a link id; in YOURLS only a keyword names a link.
    return { keyword, link: link.code === keyword ? link : null };
  } catch (error) {
    if (isHopError(error) && error.kind === 'not-found') return { keyword, link: null };
    throw error;
  }
}

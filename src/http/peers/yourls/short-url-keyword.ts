/** What `shorturl` names: a keyword, and the host of the short URL when one was given. */
export interface NamedKeyword {
  readonly keyword: string;
  /** The short URL's host; undefined for a bare keyword (the domain the call came to). */
  readonly host: string | undefined;
}

/**
 * YOURLS takes `http://sho.rt/abc` or `abc` (`yourls_api_expand`). A full short URL names
 * its host and its first path segment; anything else is the keyword itself, left for the
 * link lookups to judge (imported YOURLS keywords may be 1 or 2 characters long).
 */
export function keywordOf(shorturl: string): NamedKeyword {
  const trimmed = shorturl.trim();
  if (!/^https?:\/\//i.test(trimmed)) return { keyword: trimmed, host: undefined };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { keyword: trimmed, host: undefined };
  }
  const path = url.pathname.replace(/^\/+|\/+$/g, '');
  let keyword = path;
  try {
    keyword = decodeURIComponent(path);
  } catch {
    // a malformed escape stays as sent: it names no link either way
  }
  return { keyword, host: url.host };
}

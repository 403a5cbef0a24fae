/**
 * The domains an operator refuses (HOP_BLOCKLIST_FILE), each with all its subdomains. One
 * object for the whole process, replaced in place when the file changes, so a domain
 * blocked today stops new links at create and stops existing ones at redirect.
 */
export class DomainBlocklist {
  #domains: ReadonlySet<string>;

  constructor(domains: Iterable<string> = []) {
    this.#domains = new Set(domains);
  }

  /** Lower-case, punycode domains, as normaliseHostname gives them. */
  replace(domains: Iterable<string>): void {
    this.#domains = new Set(domains);
  }

  get size(): number {
    return this.#domains.size;
  }

  /** Exactly this domain is listed (the destination policy walks the parents itself). */
  has(domain: string): boolean {
    return this.#domains.has(domain);
  }

  /** A lower-case hostname, or one of its parent domains, is listed. */
  blocksHost(hostname: string): boolean {
    if (this.#domains.size === 0) return false;
    let candidate = hostname;
    for (;;) {
      if (this.#domains.has(candidate)) return true;
      const dot = candidate.indexOf('.');
      if (dot < 0) return false;
      candidate = candidate.slice(dot + 1);
    }
  }

  /**
   * The host of a stored destination is listed. Stored destinations are WHATWG-normalised
   * (`scheme://host[:port]/…`, host lower-case punycode), so the host is cut out of the
   * string rather than parsed: this runs on every redirect while a blocklist is set.
   */
  blocksUrl(normalisedUrl: string): boolean {
    if (this.#domains.size === 0) return false;
    const start = normalisedUrl.indexOf('//') + 2;
    if (start < 2) return false;
    let end = start;
    while (end < normalisedUrl.length) {
      const c = normalisedUrl.charCodeAt(end);
      // '/', ':', '?', '#' end the host; an IPv6 literal is never on a domain list.
      if (c === 47 || c === 58 || c === 63 || c === 35 || c === 91) break;
      end++;
    }
    return this.blocksHost(normalisedUrl.slice(start, end));
  }
}

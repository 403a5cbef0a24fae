import { BoundedMemo } from '../../domain/bounded-memo.js';
import { DEFAULT_DOMAIN, requestHostOf, type LinkDomain } from '../../domain/link-domain.js';
import type { DomainStore } from '../../ports/domain-store.js';
import { normaliseHostname } from '../../domain/destination-policy.js';

/** How links on each domain are named outside (issue 22). */
export interface ShortUrls {
  /** The short URL of `code` on `domain` (a stored host, `''` the default). */
  shortUrlOf(domain: string, code: string): string;
  /** The host a domain is known by outside: HOP_PUBLIC_URL's for the default domain. */
  hostOf(domain: string): string;
}

/** What the redirect needs of the domain a request names (issue 22). */
export interface DomainRoute {
  /** The stored host: `''` for the default domain (ADR 0115). */
  readonly domain: string;
  /** `GET /` answers 302 here; null: hop's own root page. */
  readonly rootRedirect: string | null;
  /** A miss answers 302 here instead of the 404; null: the 404. */
  readonly notFoundRedirect: string | null;
  /** Short URLs on this domain are `https://` (a domain not loaded yet: also https). */
  readonly https: boolean;
}

/** Distinct `Host` values remembered; beyond it the memo starts afresh (a host flood). */
const MAX_REMEMBERED_HOSTS = 1024;

/**
 * The short domains, held in memory for the redirect (issue 22, ADR 0115). While only the
 * default domain exists, every request is routed to it without its `Host` being read: a
 * plain redirect pays one field read. With other domains, the `Host` header is found in
 * `rawHeaders` and mapped through a bounded memo, so a request costs a header scan and a
 * lookup by the string it already has. A host that is no domain is the default domain.
 * Reloaded from the store after a change made here and on a timer (changes elsewhere).
 */
export class DomainRoutes implements ShortUrls {
  readonly #store: Pick<DomainStore, 'listDomains'>;
  readonly #defaultHost: string;
  readonly #publicUrl: string;
  /** True while some domain other than the default exists: only then is `Host` read. */
  hasOthers = false;
  defaultRoute: DomainRoute = routeOf(DEFAULT_DOMAIN, null);
  #byHost = new Map<string, DomainRoute>();
  #memo: BoundedMemo<DomainRoute>;
  /**
   * Every host of ours, the default's first, as the destination policy compares them (no
   * link may point at a short domain of this service: a loop). Updated in place.
   */
  readonly ownHosts: string[] = [];

  /** `publicUrl`: HOP_PUBLIC_URL, the default domain's short URLs' base. */
  constructor(store: Pick<DomainStore, 'listDomains'>, publicUrl: string) {
    this.#store = store;
    this.#publicUrl = publicUrl.replace(/\/+$/, '');
    this.#defaultHost = normaliseHostname(publicUrl);
    this.#memo = this.#newMemo();
    this.ownHosts.push(this.#defaultHost);
  }

  /** The route of a request, from its `rawHeaders`; synchronous, no I/O. */
  routeOf(rawHeaders: readonly string[]): DomainRoute {
    if (!this.hasOthers) return this.defaultRoute;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i] as string;
      if (name.length === 4 && (name === 'Host' || name.toLowerCase() === 'host')) {
        return this.#memo.resolve(rawHeaders[i + 1] as string);
      }
    }
    return this.defaultRoute;
  }

  /** The host short URLs of `domain` name: HOP_PUBLIC_URL's for the default domain. */
  hostOf(domain: string): string {
    return domain === DEFAULT_DOMAIN ? this.#defaultHost : domain;
  }

  /**
   * The short URL of `code` on `domain`: HOP_PUBLIC_URL's base on the default domain, else
   * the domain's scheme (https unless it says otherwise, and for one not loaded yet).
   */
  shortUrlOf(domain: string, code: string): string {
    if (domain === DEFAULT_DOMAIN) return `${this.#publicUrl}/${code}`;
    return `${this.#byHost.get(domain)?.https === false ? 'http' : 'https'}://${domain}/${code}`;
  }

  /** Reads every domain from the store and routes by them from now on. */
  async reload(): Promise<void> {
    this.replace(await this.#store.listDomains());
  }

  /** Routes by `domains` from now on (the default's own redirects are the row with host ''). */
  replace(domains: readonly LinkDomain[]): void {
    const byHost = new Map<string, DomainRoute>();
    let defaultRoute = routeOf(DEFAULT_DOMAIN, null);
    for (const domain of domains) {
      if (domain.host === DEFAULT_DOMAIN) defaultRoute = routeOf(DEFAULT_DOMAIN, domain);
      else byHost.set(domain.host, routeOf(domain.host, domain));
    }
    this.#byHost = byHost;
    this.defaultRoute = defaultRoute;
    this.#memo = this.#newMemo();
    this.hasOthers = byHost.size > 0;
    this.ownHosts.length = 1;
    for (const host of byHost.keys()) this.ownHosts.push(host);
  }

  #newMemo(): BoundedMemo<DomainRoute> {
    return new BoundedMemo((hostHeader) => {
      const host = requestHostOf(hostHeader);
      return this.#byHost.get(host) ?? this.defaultRoute;
    }, MAX_REMEMBERED_HOSTS);
  }
}

function routeOf(host: string, domain: LinkDomain | null): DomainRoute {
  return Object.freeze({
    domain: host,
    rootRedirect: domain?.rootRedirect ?? null,
    notFoundRedirect: domain?.notFoundRedirect ?? null,
    https: domain?.https ?? true,
  });
}

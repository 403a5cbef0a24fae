import { isReservedAlias } from '../../domain/alias-rules.js';
import { isPossibleCode } from '../../domain/code-format.js';
import { DEFAULT_DOMAIN, linkKey } from '../../domain/link-domain.js';
import type { Link } from '../../domain/link.js';
import {
  cacheControlFor,
  INVALID,
  NOT_FOUND,
  RESERVED,
  type RedirectOutcome,
} from '../../domain/redirect-outcome.js';
import type { Clock } from '../../ports/clock.js';
import type { LinkEvents } from '../../ports/link-events.js';
import type { RedirectReads } from '../../ports/redirect-reads.js';
import { cacheEntryFor, cachedLinkOf, type CacheEntry } from '../../domain/cache-entry.js';
import type { RedirectTarget } from '../../domain/redirect-target.js';
import type { NearLinkCache } from '../../ports/near-link-cache.js';
import type { SharedLinkCache } from '../../ports/shared-link-cache.js';
import type { KnownCodes } from './known-codes.js';
import type { DomainBlocklist } from '../../domain/domain-blocklist.js';

/**
 * A miss, once answered: the outcome and which tier answered it. `kind` tells it from a
 * RedirectOutcome when the store answered at once (ADR 0155).
 */
export interface ResolvedMiss {
  readonly kind: 'read';
  readonly outcome: RedirectOutcome;
  readonly source: 'l2' | 'store';
}

/** A store's reads that include the one answered at once (ADR 0155). */
type ReadsNow = Required<Pick<RedirectReads, 'findRedirectByCodeNow'>>;

/** What `resolve` answers: at once (L1, memory, a store that reads at once), or later. */
export type Resolution = RedirectOutcome | ResolvedMiss | Promise<ResolvedMiss>;

export interface RedirectResolverDeps {
  readonly redirects: RedirectReads;
  readonly clock: Clock;
  readonly cache: NearLinkCache;
  /** L2, when configured; null on the embedded default. */
  readonly shared: SharedLinkCache | null;
  /** Every code that exists: a code outside it is answered without any read. */
  readonly knownCodes: KnownCodes;
  /** Domains that no longer redirect (HOP_BLOCKLIST_FILE, reloaded when it changes). */
  readonly blocklist?: DomainBlocklist;
}

/**
 * Resolves codes to redirects: L1 first, without awaiting anything; on a miss one store
 * read per code however many requests are waiting for it (request coalescing). It is also
 * the LinkEvents sink that keeps L1 right after writes.
 */
export class RedirectResolver implements LinkEvents {
  readonly #redirects: RedirectReads;
  /**
   * The embedded store's synchronous read, used for every miss when there is no L2
   * (ADR 0155); null otherwise.
   */
  readonly #readsNow: ReadsNow | null;
  readonly #clock: Clock;
  readonly #cache: NearLinkCache;
  readonly #shared: SharedLinkCache | null;
  readonly #known: KnownCodes;
  readonly #blocklist: DomainBlocklist | undefined;
  readonly #inflight = new Map<string, Promise<ResolvedMiss>>();
  /** What the redirect path counts; metrics read it when scraped. */
  readonly stats = new RedirectStats();

  constructor(deps: RedirectResolverDeps) {
    this.#redirects = deps.redirects;
    this.#clock = deps.clock;
    this.#cache = deps.cache;
    this.#shared = deps.shared;
    this.#known = deps.knownCodes;
    this.#blocklist = deps.blocklist;
    this.#readsNow =
      deps.shared === null && deps.redirects.findRedirectByCodeNow !== undefined
        ? (deps.redirects as ReadsNow)
        : null;
    // Invalidations from any instance (this one included) drop the code from L1. Creates
    // are announced the same way, so the code is known here before the next catch-up.
    deps.shared?.onInvalidation((key, version) => {
      this.#known.add(key);
      this.#drop(key, version);
    });
  }

  /**
   * `code` on `domain` (a stored host, `''` the default: ADR 0115). Every cache, the known
   * codes and the reads in flight hold it under its link key: the code itself on the
   * default domain (no new string on the redirect's hot path), `host/code` on another.
   *
   * 1. L1 hit: answer synchronously, checking state and expiry against the clock.
   * 2. Reject a path that cannot be a code, or is a reserved word, without any I/O.
   * 3. Miss on a code that certainly does not exist (scanners, typos): 404 at once.
   * 4. Other misses, on a store that reads at once and without L2 (the embedded default):
   *    read now, and answer in this turn (ADR 0155). A failed read is a rejected promise,
   *    as from any store.
   * 5. Other misses elsewhere: join the read already in flight for this code, or start
   *    one: L2 (when configured, with its timeout; an entry older than L1 knows is a
   *    miss), then the store.
   */
  resolve(code: string, domain: string): Resolution {
    const key = domain === DEFAULT_DOMAIN ? code : linkKey(domain, code);
    const entry = this.#cache.get(key);
    if (entry !== undefined) {
      this.stats.l1Hits++;
      return this.#outcomeOf(entry);
    }
    // Checked after L1, which only ever holds possible codes: a hit skips the checks.
    // Reserved words are our own routes (the front hands them to Fastify); no link holds
    // one (aliases refuse them, generation skips them), so none is worth a read.
    if (isReservedAlias(code)) return RESERVED;
    if (!isPossibleCode(code)) return INVALID;
    this.stats.l1Misses++;
    if (!this.#known.mightExist(key)) {
      this.stats.readsSkipped++;
      return NOT_FOUND;
    }
    if (this.#readsNow !== null) return this.#readStoreNow(this.#readsNow, domain, code, key);
    const pending = this.#inflight.get(key);
    if (pending !== undefined) {
      this.stats.coalescedReads++;
      return pending;
    }
    const read =
      this.#shared === null
        ? this.#readStore(domain, code, key)
        : this.#shared.get(key).then((shared) => {
            // L1 refuses an entry older than a version it knows, e.g. an invalidation made
            // here while Redis was unreachable, which Redis may still not have: a miss.
            if (shared !== undefined && this.#cache.set(key, shared)) {
              this.stats.l2Hits++;
              return { kind: 'read', outcome: this.#outcomeOf(shared), source: 'l2' } as const;
            }
            if (shared !== undefined) this.stats.l2Stale++;
            this.stats.l2Misses++;
            return this.#readStore(domain, code, key);
          });
    this.#inflight.set(key, read);
    const settle = () => {
      // Only this read's own slot: an invalidation may have started a newer one since.
      if (this.#inflight.get(key) === read) this.#inflight.delete(key);
    };
    void read.then(settle, settle);
    return read;
  }

  /**
   * The answer this instance has without any read (L1, the code format, the known codes),
   * or undefined when only a read could tell: for throttled scanners and for redirects
   * under heavy load shedding, which must not cost a read.
   */
  resolveFromMemory(code: string, domain: string): RedirectOutcome | undefined {
    const key = domain === DEFAULT_DOMAIN ? code : linkKey(domain, code);
    const entry = this.#cache.get(key);
    if (entry !== undefined) {
      this.stats.l1Hits++;
      return this.#outcomeOf(entry);
    }
    if (isReservedAlias(code)) return RESERVED;
    if (!isPossibleCode(code)) return INVALID;
    if (!this.#known.mightExist(key)) {
      this.stats.readsSkipped++;
      return NOT_FOUND;
    }
    return undefined;
  }

  /** True when HOP_BLOCKLIST_FILE names the domain of `url`: it is not redirected to. */
  blocks(url: string): boolean {
    if (this.#blocklist === undefined || !this.#blocklist.blocksUrl(url)) return false;
    this.stats.blockedRedirects++;
    return true;
  }

  /** Entries L1 holds now. */
  get cachedEntries(): number {
    return this.#cache.size;
  }

  linkCreated(link: Link): void {
    // Write-through: the code may sit in L1 or L2 as absent; the new link replaces that.
    const entry = entryOf(link);
    const key = linkKey(link.domain, link.code);
    this.#known.add(key);
    this.#cache.set(key, entry);
    this.#shared?.set(key, entry);
    // Other instances may hold the code as absent in their L1 (SPEC §5).
    this.#shared?.broadcast(key, link.version);
  }

  linkChanged(link: Link): void {
    const key = linkKey(link.domain, link.code);
    this.#drop(key, link.version);
    this.#shared?.invalidate(key, link.version);
  }

  /**
   * A change that another process committed (the embedded store's change feed): L1 forgets
   * the code's older entry. A change of this instance's own comes back too: L1 already
   * holds that version and keeps it; at most a read in flight for the code stops being
   * shared.
   */
  changedElsewhere(key: string, version: number): void {
    this.#drop(key, version);
  }

  /** Forgets L1's entry and any read in flight for a link key now at `version`. */
  #drop(key: string, version: number): void {
    this.#inflight.delete(key);
    this.#cache.invalidate(key, version);
  }

  #readStore(domain: string, code: string, key: string): Promise<ResolvedMiss> {
    // A store error never reaches #filled, so it is never cached as "not found" (SPEC §5).
    return this.#redirects
      .findRedirectByCode(domain, code)
      .then(
        (found) =>
          this.#filled(key, found) ??
          this.#redirects
            .findRedirectByCode(domain, code, { primary: true })
            .then((latest) => this.#refilled(key, latest)),
      );
  }

  /**
   * The miss read at once (ADR 0155): nothing to coalesce (no other request runs until it
   * returns), no promise on success. A read older than a version L1 knows is read again,
   * as in #readStore (one file: the same read is the primary's).
   */
  #readStoreNow(
    reads: ReadsNow,
    domain: string,
    code: string,
    key: string,
  ): ResolvedMiss | Promise<ResolvedMiss> {
    try {
      return (
        this.#filled(key, reads.findRedirectByCodeNow(domain, code)) ??
        this.#refilled(key, reads.findRedirectByCodeNow(domain, code))
      );
    } catch (error) {
      // Never "not found" for a store that failed (SPEC §5): the caller's 503.
      return rejected(error);
    }
  }

  /**
   * L1's entry for what the store read, made here once per fill (the store's read knows
   * nothing of caches), and the miss's answer; null when the read is older than a change
   * this instance made or was told of (a replica that has not replayed it yet): never
   * served (SPEC §5), the caller reads the primary.
   */
  #filled(key: string, found: RedirectTarget | null): ResolvedMiss | null {
    const entry = cacheEntryFor(found);
    if (this.#cache.set(key, entry)) return this.#stored(key, found, entry);
    this.stats.staleStoreReads++;
    return null;
  }

  /** The primary's answer after a stale read: kept if L1 takes it, served either way. */
  #refilled(key: string, latest: RedirectTarget | null): ResolvedMiss {
    const fresh = cacheEntryFor(latest);
    this.#cache.set(key, fresh);
    return this.#stored(key, latest, fresh);
  }

  #stored(key: string, found: RedirectTarget | null, entry: CacheEntry): ResolvedMiss {
    if (found === null && this.#known.ready) this.stats.filterFalsePositives++;
    this.#shared?.set(key, entry);
    return { kind: 'read', outcome: this.#outcomeOf(entry), source: 'store' };
  }

  #outcomeOf(entry: CacheEntry): RedirectOutcome {
    if (!entry.found) return NOT_FOUND;
    if (entry.state !== 'active') {
      // An expired link may have a fallback; a takedown (disabled, deleted) goes nowhere.
      return entry.state === 'expired' && entry.smart !== null ? entry.smart.whenSpent : NOT_FOUND;
    }
    // The clock is read only for a link that expires (or a permanent redirect's max-age,
    // below): a feature a link does not use costs it nothing (ADR 0124).
    if (entry.expiresAt !== null && entry.expiresAt <= this.#clock.now()) {
      return entry.smart === null ? NOT_FOUND : entry.smart.whenSpent;
    }
    if (this.#blocklist !== undefined && this.#blocklist.blocksUrl(entry.location)) {
      this.stats.blockedRedirects++;
      return NOT_FOUND;
    }
    if (entry.fixedOutcome !== null) return entry.fixedOutcome;
    // Its answer depends on the visitor or a shared count: the front decides (issue 21).
    // cachedLinkOf makes this outcome once, as the entry's fixedOutcome, for every entry
    // hop builds; the type still allows one without, which gets it here, not a plain 302.
    if (entry.smart !== null) return { kind: 'smart', link: entry };
    return {
      kind: 'redirect',
      linkId: entry.linkId,
      code: entry.code,
      status: entry.status,
      location: entry.location,
      cacheControl: cacheControlFor(entry.status, entry.expiresAt, this.#clock.now()),
      crawlable: entry.crawlable,
    };
  }
}

/** A read that failed at once, as a read that fails later looks to its caller. */
async function rejected(error: unknown): Promise<never> {
  throw error;
}

function entryOf(link: Link): CacheEntry {
  return cachedLinkOf(
    link.id,
    link.code,
    link.version,
    link.state,
    link.expiresAt,
    link.statusCode,
    link.destination,
    link.smart,
    link.crawlable,
  );
}

/**
 * The redirect path's counters, one preallocated object of plain numbers (every field
 * initialised here, so its shape never changes): a hit adds one, allocates nothing. A new
 * redirect metric is a field here and a row in src/main/metric-table.ts.
 */
export class RedirectStats {
  l1Hits = 0;
  l1Misses = 0;
  l2Hits = 0;
  /** L2 misses, failures included. */
  l2Misses = 0;
  /** L2 entries older than a version known here: counted as misses too, and read from the store. */
  l2Stale = 0;
  /** Misses that joined a store read already in flight for the same code. */
  coalescedReads = 0;
  /** Store reads older than a version known here (a lagging replica): read again from the primary. */
  staleStoreReads = 0;
  /** Misses the known codes ruled out: answered 404 without asking L2 or the store. */
  readsSkipped = 0;
  /** Misses the known codes let through that the store then did not have. */
  filterFalsePositives = 0;
  /** Redirects refused because the destination's domain is on the blocklist. */
  blockedRedirects = 0;
}

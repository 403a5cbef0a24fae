import { DEFAULT_DOMAIN } from '../domain/link-domain.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { ALPHABETS } from '../codes/alphabets.js';
import { RandomCodeGenerator } from '../codes/random-code-generator.js';
import type { Config } from '../config/config.js';
import type { DomainBlocklist } from '../domain/domain-blocklist.js';
import type { Clock } from '../ports/clock.js';
import type { LinkEvents } from '../ports/link-events.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Store } from '../ports/store.js';
import type { DomainEvents, DomainServiceDeps } from '../services/domains/domain-service-deps.js';
import type { KeyServiceDeps } from '../services/keys/key-service-deps.js';
import { KeyUses } from '../services/keys/key-uses.js';
import type { SweepDeps } from '../services/lifecycle/sweeper.js';
import { CreateCounters } from '../services/links/create-counters.js';
import type { LinkServiceDeps } from '../services/links/link-service-deps.js';
import {
  readServiceStats,
  type ServiceStats,
  type SweepTotals,
} from '../services/stats/service-stats.js';
import type { CodeParts } from './compose-codes.js';

/** Generated codes tried before a create gives up (SPEC §2: bounded retry, then 503). */
const MAX_CODE_ATTEMPTS = 8;
/** 32 base62 characters ≈ 190 bits: an API key nobody guesses. */
const API_KEY_RANDOM_LENGTH = 32;

export interface ServiceParts {
  readonly linkService: LinkServiceDeps;
  readonly keyService: KeyServiceDeps;
  /** Short domains (issue 22). */
  readonly domainService: DomainServiceDeps;
  /** What a sweep needs (SPEC §7): `hop serve`'s job and `hop sweep` run it alike. */
  readonly sweepDeps: SweepDeps;
  /** The sweeper's totals, kept by whoever runs it (`hop serve`, `hop sweep`). */
  readonly sweeps: SweepTotals;
  /** `GET /v1/stats`: the code space and what creates cost. */
  readonly stats: () => ServiceStats;
}

/** What the links, keys and sweep use cases are given. */
export function composeServices(
  config: Config,
  store: Store,
  clock: Clock,
  parts: {
    readonly codes: CodeParts;
    /** Told of every write first, so caches never serve what was just changed. */
    readonly cacheEvents: LinkEvents;
    readonly blocklist: DomainBlocklist;
    readonly createLimiter: RateLimiter | null;
    /** A key's last use could not be written: logged, the request goes on regardless. */
    readonly onKeyUseError: (error: unknown) => void;
    readonly domainRoutes: DomainRoutes;
    /** Told of every change to a domain: the redirect's registry of domains. */
    readonly domainEvents: DomainEvents;
  },
): ServiceParts {
  const { codes, cacheEvents, blocklist, createLimiter } = parts;
  const newId = monotonicFactory(bufferedRandomFraction());
  const secrets = new RandomCodeGenerator({
    alphabet: ALPHABETS.base62,
    length: API_KEY_RANDOM_LENGTH,
    randomBytes: (buffer) => {
      randomFillSync(buffer);
    },
  });
  const linkService: LinkServiceDeps = {
    links: store.links,
    clock,
    codes: codes.generator,
    newId: () => newId(),
    destinationPolicy: {
      maxLength: config.maxUrlLength,
      ownHosts: parts.domainRoutes.ownHosts,
      blockedDomains: blocklist,
    },
    expiryPolicy: { defaultTtlMs: config.defaultTtlMs, maxTtlMs: config.maxTtlMs },
    createLimiter,
    maxCodeAttempts: MAX_CODE_ATTEMPTS,
    events: bothLinkEvents(cacheEvents, codes.guessBound),
    createCounters: new CreateCounters(),
    domains: store.domains,
    defaultHost: parts.domainRoutes.hostOf(DEFAULT_DOMAIN),
  };
  const keyService: KeyServiceDeps = {
    keys: store.keys,
    clock,
    newId: () => newId(),
    newSecret: () => `hop_${secrets.generateSync()}`,
    defaultHost: linkService.defaultHost,
    domains: store.domains,
    uses: new KeyUses(store.keys, clock, parts.onKeyUseError),
  };
  const domainService: DomainServiceDeps = {
    domains: store.domains,
    clock,
    defaultHost: linkService.defaultHost,
    defaultHttps: config.publicUrl.startsWith('https:'),
    defaultRootRedirect: config.rootRedirect ?? null,
    destinationPolicy: linkService.destinationPolicy,
    events: parts.domainEvents,
  };
  const sweeps: SweepTotals = { runs: 0, failures: 0, expired: 0, reclaimed: 0, lastRunAt: null };
  return {
    linkService,
    keyService,
    domainService,
    sweepDeps: {
      sweep: store.sweep,
      events: linkService.events,
      recycler: codes.recycler,
      reclaimGraceMs: config.reclaimGraceMs,
    },
    sweeps,
    stats: () =>
      readServiceStats({
        generator: codes.generator,
        guessBound: codes.guessBound,
        createCounters: linkService.createCounters,
        poolRemaining: () => codes.pool?.remaining ?? null,
        sweeps,
      }),
  };
}

/**
 * ulid's PRNG, as ulid's own (a CSPRNG byte / 256) but drawn 4 KiB at a time: ulid asks for
 * one byte per character, and a getRandomValues call per byte was 5% of a create's CPU.
 */
function bufferedRandomFraction(): () => number {
  const bytes = new Uint8Array(4096);
  let next = bytes.length;
  return () => {
    if (next === bytes.length) {
      randomFillSync(bytes);
      next = 0;
    }
    return (bytes[next++] as number) / 256;
  };
}

/** Caches hear of every change first; the guess bound counts creates. */
function bothLinkEvents(first: LinkEvents, second: LinkEvents): LinkEvents {
  return {
    linkCreated: (link) => {
      first.linkCreated(link);
      second.linkCreated(link);
    },
    linkChanged: (link) => {
      first.linkChanged(link);
      second.linkChanged(link);
    },
  };
}

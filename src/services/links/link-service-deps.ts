import type { DestinationPolicyOptions } from '../../domain/destination-policy.js';
import type { ExpiryPolicy } from '../../domain/expiry.js';
import type { Clock } from '../../ports/clock.js';
import type { DomainStore } from '../../ports/domain-store.js';
import type { CodeGenerator } from '../../ports/code-generator.js';
import type { LinkEvents } from '../../ports/link-events.js';
import type { LinkRepository } from '../../ports/link-repository.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { CreateCounters } from './create-counters.js';

/** What the link use cases need, built once by the composition root. */
export interface LinkServiceDeps {
  readonly links: LinkRepository;
  readonly clock: Clock;
  readonly codes: CodeGenerator;
  /** A new ULID: sortable by creation time, unique across instances. */
  readonly newId: () => string;
  readonly destinationPolicy: DestinationPolicyOptions;
  readonly expiryPolicy: ExpiryPolicy;
  /** Limits creates per API key; admin keys are exempt. */
  readonly createLimiter: RateLimiter | null;
  /** How many generated codes to try before giving up with `code-space-exhausted`. */
  readonly maxCodeAttempts: number;
  /** Told after every committed write, so caches never serve what was changed. */
  readonly events: LinkEvents;
  /** Store round trips of creates, counted for the metric. */
  readonly createCounters: CreateCounters;
  /** The short domains a link may be created on (issue 22). */
  readonly domains: Pick<DomainStore, 'findDomain'>;
  /** The host of HOP_PUBLIC_URL: the default domain, stored as `''` (ADR 0115). */
  readonly defaultHost: string;
}

import type { DestinationPolicyOptions } from '../../domain/destination-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { DomainStore } from '../../ports/domain-store.js';

/**
 * Told after every committed change to a domain, so the redirect's registry reloads it; the
 * use case answers once it has, so a change is routed by the time its caller hears of it.
 * Never rejects: the change is committed whatever the registry does.
 */
export interface DomainEvents {
  domainsChanged(): Promise<void>;
}

/** What the domain use cases need (issue 22), built once by the composition root. */
export interface DomainServiceDeps {
  readonly domains: DomainStore;
  readonly clock: Clock;
  /** The host of HOP_PUBLIC_URL (lower case, no port): the default domain's name. */
  readonly defaultHost: string;
  /** The default domain's scheme is HOP_PUBLIC_URL's: true when that is https. */
  readonly defaultHttps: boolean;
  /** HOP_ROOT_REDIRECT: where `GET /` on the default domain goes while its own is unset. */
  readonly defaultRootRedirect: string | null;
  /** The links' destination policy: a domain's redirects pass it too (ADR 0117). */
  readonly destinationPolicy: DestinationPolicyOptions;
  readonly events: DomainEvents;
}

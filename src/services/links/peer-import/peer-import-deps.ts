import type { DestinationPolicyOptions } from '../../../domain/destination-policy.js';
import type { ClickStore } from '../../../ports/click-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { LinkEvents } from '../../../ports/link-events.js';
import type { LinkRepository } from '../../../ports/link-repository.js';
import type { DomainServiceDeps } from '../../domains/domain-service-deps.js';

/** What importing a peer's links needs (issue 24), built by `peerImportDepsOf`. */
export interface PeerImportDeps {
  /** Where links are inserted (with their `link.created` event) and codes looked up. */
  readonly links: Pick<LinkRepository, 'insertLink' | 'findLinkByCode'>;
  /** Told of every link inserted, as a create tells them: caches, the guess bound. */
  readonly events: LinkEvents;
  readonly clock: Clock;
  /**
   * A new link id (a ULID) whose time is `epochMs`: an imported link's id sorts by its kept
   * creation time, as every link's does, so lists newest first keep the peer's order.
   */
  readonly newIdAt: (epochMs: number) => string;
  /** The destinations a create accepts: an imported link's must pass it too. */
  readonly destinationPolicy: DestinationPolicyOptions;
  /** The host of HOP_PUBLIC_URL: the default domain, stored as `''` (ADR 0115). */
  readonly defaultHost: string;
  /** The short domains: looked up, and a peer's one hop lacks added (ADR 0136). */
  readonly domains: DomainServiceDeps;
  /** Where the peers' click totals are kept as the links' starting counts. */
  readonly startingCounts: Pick<ClickStore, 'keepStartingCounts'>;
}

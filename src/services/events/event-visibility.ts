import { canSeeLinkOf, canUseDomain, type Principal } from '../../domain/principal.js';

/** Who a link belongs to and where it lives: what decides who may see its events. */
export interface LinkPlace {
  readonly owner: string;
  readonly domain: string;
}

/**
 * What an event stream's caller may see (ADR 0129): events of links it may see (an owner
 * key its own links, an admin key every owner's, a key limited to domains only links on
 * them: ADR 0118), deleted links' included, since their `link.deleted` is the news. Link
 * events need `links:read` (the route's scope); clicks also need `analytics:read`.
 */
export interface EventAudience {
  readonly principal: Principal;
  /** False when the key lacks `analytics:read`: its stream carries no `link.clicked`. */
  readonly seesClicks: boolean;
}

export function audienceOf(principal: Principal): EventAudience {
  return { principal, seesClicks: principal.scopes.has('analytics:read') };
}

/** True when the audience may see events of a link in `place`. */
export function canSeeEventsOf(audience: EventAudience, place: LinkPlace): boolean {
  return (
    canSeeLinkOf(audience.principal, place.owner) && canUseDomain(audience.principal, place.domain)
  );
}

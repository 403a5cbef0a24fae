import type { Principal } from '../../domain/principal.js';

/** The part of a query that limits it to the links a caller can see. */
export interface VisibleLinks {
  /** Only this owner's links; undefined (an admin) for every owner's. */
  readonly owner: string | undefined;
  /** Only links on these domains (stored hosts), for a key limited to them (issue 22). */
  readonly domains: readonly string[] | undefined;
}

/** What the caller sees: its owner's links (an admin: all), on its key's domains. */
export function visibleLinksOf(principal: Principal): VisibleLinks {
  return {
    owner: principal.admin ? undefined : principal.owner,
    domains: principal.domains === null ? undefined : [...principal.domains],
  };
}

import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import type { PeriodicJob } from './job-scheduler.js';

/**
 * How often `hop serve` rereads the domains: a domain added or changed through another
 * instance or the CLI routes here within this long (changes made here apply at once).
 */
export const DOMAINS_RELOAD_MS = 2000;

export function reloadDomains(routes: DomainRoutes): PeriodicJob {
  return {
    name: 'reload-domains',
    everyMs: DOMAINS_RELOAD_MS,
    // The runtime read them once as it was composed (the CLI needs them too): not again.
    runAtStart: false,
    run: () => routes.reload(),
    failing: 'domains could not be reloaded; routing by the last ones read',
    recovered: 'domains reloading again',
  };
}

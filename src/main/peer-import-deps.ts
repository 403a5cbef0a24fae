import { ulid } from 'ulid';
import type { PeerImportDeps } from '../services/links/peer-import/import-peer-links.js';
import type { Runtime } from './compose.js';

/**
 * What `hop import` needs to import a peer's links (issue 24): the runtime's own link,
 * domain and click stores and the events a create tells, so an imported link is cached,
 * announced (`link.created`) and counted as a created one is.
 */
export function peerImportDepsOf(runtime: Runtime): PeerImportDeps {
  const links = runtime.linkService;
  return {
    links: links.links,
    events: links.events,
    clock: links.clock,
    // A ULID of the kept creation time (its 80 random bits make it unique).
    newIdAt: (epochMs) => ulid(epochMs),
    destinationPolicy: links.destinationPolicy,
    defaultHost: links.defaultHost,
    domains: runtime.domainService,
    startingCounts: runtime.store.clicks,
  };
}

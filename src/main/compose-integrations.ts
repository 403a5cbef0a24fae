import type { MessagePort } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import { composeIntegrationWork, type Integrations } from './compose-integration-work.js';
import { startIntegrationsThread } from './integrations-thread.js';

export type { Integrations } from './compose-integration-work.js';

/**
 * `hop serve` runs the integrations in a thread of their own at the lowest CPU priority
 * (ADR 0132), with its own store connections: they take the CPU redirects leave, and wait
 * (in the durable outbox and the logs) while redirects take all of it. A runtime that does
 * not serve (the CLI, tests) runs them here.
 */
export function composeIntegrations(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  context: {
    readonly serving: boolean;
    readonly domainRoutes: DomainRoutes;
    /** A stream is open or a webhook takes `link.clicked`: click events must be written. */
    readonly clicksWanted: () => void;
    /** Where the thread sends the spool's planned rows to be written (ADR 0132). */
    readonly spoolWrites: () => MessagePort | null;
  },
): Integrations {
  if (context.serving) {
    return startIntegrationsThread(config, logger, context.clicksWanted, context.spoolWrites);
  }
  return composeIntegrationWork(config, store, clock, logger, {
    domainRoutes: context.domainRoutes,
    clicksWanted: context.clicksWanted,
    spool: store.foldLogSpool,
  });
}

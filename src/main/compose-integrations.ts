import type { MessagePort } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import type { JobScheduler } from '../jobs/job-scheduler.js';
import { writeOutFoldLogs } from '../jobs/write-out-fold-logs.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { EventStreams } from '../services/events/event-streams.js';
import type { LinkPlaces } from '../services/events/link-places.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import { composeEventStreams } from './compose-event-streams.js';
import { composeWebhookJobs } from './compose-webhooks.js';
import { startIntegrationsThread } from './integrations-thread.js';

/**
 * The way out of hop (issue 23): webhook deliveries and the event streams. Both read the
 * event logs and do work per event that a redirect must never wait on or pay for.
 */
export interface Integrations {
  /** `GET /v1/events`. */
  readonly streams: EventStreams;
  /**
   * `hop serve`: webhook fan-out, delivery and the logs' retention begin, and the spooled
   * folds' visits and click events are written out (ADR 0132).
   */
  start(jobs: JobScheduler): void;
  /** Ends the streams; webhook attempts in flight finish and are recorded. */
  stop(): Promise<void>;
}

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
    readonly linkPlaces: LinkPlaces;
    /** A stream is open or a webhook takes `link.clicked`: click events must be written. */
    readonly clicksWanted: () => void;
    /** Where the thread sends the spool's planned rows to be written (ADR 0132). */
    readonly spoolWrites: () => MessagePort | null;
  },
): Integrations {
  if (context.serving) {
    return startIntegrationsThread(config, logger, context.clicksWanted, context.spoolWrites);
  }
  const places = { domainRoutes: context.domainRoutes, linkPlaces: context.linkPlaces };
  const streams = composeEventStreams(config, store, logger, places, context.clicksWanted);
  const webhooks = composeWebhookJobs(config, store, clock, logger, places, context.clicksWanted);
  return {
    streams,
    start: (jobs) => {
      webhooks.start(jobs);
      if (store.foldLogSpool !== null) jobs.start(writeOutFoldLogs(store.foldLogSpool));
    },
    stop: async () => {
      await streams.close();
      await webhooks.stop();
    },
  };
}

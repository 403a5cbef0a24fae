import type { Config } from '../config/config.js';
import type { JobScheduler } from '../jobs/job-scheduler.js';
import { writeOutFoldLogs } from '../jobs/write-out-fold-logs.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { FoldLogSpool } from '../ports/fold-log-spool.js';
import type { Store } from '../ports/store.js';
import type { EventStreams } from '../services/events/event-streams.js';
import { LinkPlaces } from '../services/events/link-places.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import { composeEventStreams } from './compose-event-streams.js';
import { composeWebhookJobs } from './compose-webhooks.js';

/**
 * The way out of hop (issue 23): webhook deliveries, the event streams, and the spooled
 * folds' visits and click events. All of it reads the event logs and does work per event
 * that a redirect must never wait on or pay for.
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
 * The integrations over `store`, wherever they run: in `hop serve`'s integrations thread,
 * or in a runtime that does not serve (the CLI, tests).
 */
export function composeIntegrationWork(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  parts: {
    readonly domainRoutes: DomainRoutes;
    /** A stream is open or a webhook takes `link.clicked`: click events must be written. */
    readonly clicksWanted: () => void;
    /** The folds' spooled logs (ADR 0132); null where folds write them themselves. */
    readonly spool: FoldLogSpool | null;
  },
): Integrations {
  const { clicksWanted, spool } = parts;
  // Whose link a click event is about: one memo for the webhooks and the event stream.
  const places = { domainRoutes: parts.domainRoutes, linkPlaces: new LinkPlaces(store.links) };
  const streams = composeEventStreams(config, store, logger, places, clicksWanted);
  const webhooks = composeWebhookJobs(config, store, clock, logger, places, clicksWanted);
  return {
    streams,
    start: (jobs) => {
      webhooks.start(jobs);
      if (spool !== null) jobs.start(writeOutFoldLogs(spool));
    },
    stop: async () => {
      await streams.close();
      await webhooks.stop();
    },
  };
}

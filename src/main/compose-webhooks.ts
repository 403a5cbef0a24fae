import { monotonicFactory } from 'ulid';
import { HttpWebhookSender } from '../adapters/webhook-http/http-webhook-sender.js';
import type { Config } from '../config/config.js';
import { NO_CLICKS } from '../domain/click-fold.js';
import { toLinkJson } from '../http/link-json.js';
import type { JobScheduler } from '../jobs/job-scheduler.js';
import {
  deliverWebhooks,
  fanOutWebhooks,
  forgetDeliveries,
  forgetEvents,
} from '../jobs/webhook-jobs.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import type { FanOutDeps } from '../services/webhooks/fan-out-webhook-events.js';
import { EVENTS_KEEP_MS } from '../services/webhooks/forget-old-events.js';
import { WebhookDispatcher } from '../services/webhooks/webhook-dispatcher.js';
import type { LinkPlaces } from '../services/events/link-places.js';
import {
  CLICK_EVENTS_SOURCE,
  clickEventSource,
  LINK_EVENTS_SOURCE,
  linkEventSource,
  type RenderLinks,
  type WebhookEventSource,
} from '../services/webhooks/webhook-event-source.js';
import type { WebhookServiceDeps } from '../services/webhooks/webhook-service-deps.js';

/** The webhook API's use cases (issue 23, ADR 0128): the process that answers requests. */
export function composeWebhookService(
  config: Config,
  store: Store,
  clock: Clock,
  clicksWanted: () => void,
): WebhookServiceDeps {
  const newId = monotonicFactory();
  return {
    webhooks: store.webhooks,
    clock,
    urlPolicy: { allowPrivate: config.webhookAllowPrivate },
    newId: () => newId(),
    giveUpAfterMs: config.webhookGiveUpAfterMs,
    clicksWanted,
  };
}

/** What delivers webhooks: `hop serve`'s integrations thread runs it (ADR 0132). */
export interface WebhookJobs {
  /** Fan-out, delivery and the logs' retention, on `jobs`. */
  start(jobs: JobScheduler): void;
  /** Stops claiming; attempts in flight finish (each within HOP_WEBHOOK_TIMEOUT). */
  stop(): Promise<void>;
}

/** The webhooks' background work (issue 23, ADR 0128). */
export function composeWebhookJobs(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  places: { readonly domainRoutes: DomainRoutes; readonly linkPlaces: LinkPlaces },
  clicksWanted: () => void,
): WebhookJobs {
  const { domainRoutes, linkPlaces } = places;
  const newId = monotonicFactory();
  // The API's link JSON (services may not import src/http), with the click totals then.
  const renderLinks: RenderLinks = async (links) => {
    const totals = await store.clicks.totals(links.map(({ link }) => link.id));
    return links.map(({ link, atMs }) =>
      toLinkJson(link, domainRoutes, atMs, totals.get(link.id) ?? NO_CLICKS),
    );
  };
  const sources: WebhookEventSource[] = [
    linkEventSource(store.linkEvents, renderLinks),
    // A click event names only its link: its owner, read once and kept (shared with the
    // event stream).
    clickEventSource(
      store.clickEvents,
      async (linkId) => (await linkPlaces.placeOf(linkId))?.owner ?? null,
    ),
  ];
  const fanOut: FanOutDeps = {
    webhooks: store.webhooks,
    clock,
    newId: () => newId(),
    giveUpAfterMs: config.webhookGiveUpAfterMs,
    clicksWanted,
  };
  const sender = new HttpWebhookSender({ allowPrivate: config.webhookAllowPrivate });
  const dispatcher = new WebhookDispatcher({
    webhooks: store.webhooks,
    sender,
    clock,
    random: Math.random,
    timeoutMs: config.webhookTimeoutMs,
    retryBaseMs: config.webhookRetryBaseMs,
    concurrency: config.webhookConcurrency,
    onError: (error) => {
      logger.warn({ err: error }, 'a webhook attempt could not be recorded; it will be retried');
    },
  });
  return {
    start(jobs) {
      jobs.start(fanOutWebhooks(fanOut, sources, config.webhookPollMs));
      jobs.start(deliverWebhooks(dispatcher, config.webhookPollMs));
      jobs.start(
        forgetDeliveries({
          webhooks: store.webhooks,
          clock,
          keepMs: { delivered: config.webhookKeepDeliveredMs, failed: config.webhookKeepFailedMs },
        }),
      );
      jobs.start(
        forgetEvents('forget-link-events', {
          log: store.linkEvents,
          timeOf: (event) => event.occurredAt,
          fanOutPosition: () => store.webhooks.fanOutPosition(LINK_EVENTS_SOURCE),
          clock,
          keepMs: EVENTS_KEEP_MS,
        }),
      );
      jobs.start(
        forgetEvents('forget-click-events', {
          log: store.clickEvents,
          timeOf: (event) => event.recordedAt,
          fanOutPosition: () => store.webhooks.fanOutPosition(CLICK_EVENTS_SOURCE),
          clock,
          keepMs: EVENTS_KEEP_MS,
        }),
      );
    },
    stop: async () => {
      await dispatcher.stop();
      sender.close();
    },
  };
}

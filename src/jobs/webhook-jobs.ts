import {
  fanOutWebhookEvents,
  type FanOutDeps,
} from '../services/webhooks/fan-out-webhook-events.js';
import {
  forgetFinishedDeliveries,
  type ForgetDeliveriesDeps,
} from '../services/webhooks/forget-finished-deliveries.js';
import { forgetOldEvents, type ForgetEventsDeps } from '../services/webhooks/forget-old-events.js';
import type { WebhookDispatcher } from '../services/webhooks/webhook-dispatcher.js';
import type { WebhookEventSource } from '../services/webhooks/webhook-event-source.js';
import type { PeriodicJob } from './job-scheduler.js';

/** Events read per fan-out step. */
const FAN_OUT_BATCH = 500;
/** Link events forgotten per statement. */
const FORGET_BATCH = 1000;
/** How often old link events are forgotten. */
const FORGET_EVERY_MS = 10 * 60 * 1000;
/** Finished deliveries forgotten per statement. */
const FORGET_DELIVERIES_BATCH = 1000;
/**
 * How often finished deliveries are forgotten: a busy instance finishes thousands a second
 * (the integrations bench: ~2,000), so each run has a minute's worth, not ten.
 */
const FORGET_DELIVERIES_EVERY_MS = 60 * 1000;

/**
 * Fans each source's new events out into deliveries (ADR 0128), step after step until it
 * has caught up; each source keeps its own position. At shutdown it ends after a step.
 */
export function fanOutWebhooks(
  deps: FanOutDeps,
  sources: readonly WebhookEventSource[],
  everyMs: number,
): PeriodicJob {
  return {
    name: 'webhook-fan-out',
    everyMs,
    runAtStart: true,
    finishOnStop: true,
    failing: 'webhook events could not be fanned out; retrying',
    recovered: 'webhook events are fanned out again',
    run: async (stopping) => {
      for (const source of sources) {
        while (!stopping.aborted) {
          if ((await fanOutWebhookEvents(deps, source, FAN_OUT_BATCH)) < FAN_OUT_BATCH) break;
        }
      }
    },
  };
}

/** Claims due deliveries for the dispatcher's free slots (its attempts run on their own). */
export function deliverWebhooks(dispatcher: WebhookDispatcher, everyMs: number): PeriodicJob {
  return {
    name: 'webhook-deliveries',
    everyMs,
    runAtStart: true,
    failing: 'webhook deliveries could not be claimed; retrying',
    recovered: 'webhook deliveries are claimed again',
    run: (stopping) => dispatcher.claimWhileDue(stopping),
  };
}

/** Forgets link events past their day, never one the fan-out has not read (ADR 0128). */
export function forgetEvents<Event extends { readonly position: string }>(
  name: string,
  deps: ForgetEventsDeps<Event>,
): PeriodicJob {
  return {
    name,
    everyMs: FORGET_EVERY_MS,
    runAtStart: false,
    finishOnStop: true,
    failing: `${name}: old events could not be forgotten`,
    run: async (stopping) => {
      await forgetOldEvents(deps, FORGET_BATCH, stopping);
    },
  };
}

/** Forgets delivered and failed deliveries past their keeping (ADR 0128: retention). */
export function forgetDeliveries(deps: ForgetDeliveriesDeps): PeriodicJob {
  return {
    name: 'forget-webhook-deliveries',
    everyMs: FORGET_DELIVERIES_EVERY_MS,
    runAtStart: true,
    finishOnStop: true,
    failing: 'finished webhook deliveries could not be forgotten',
    run: async (stopping) => {
      await forgetFinishedDeliveries(deps, FORGET_DELIVERIES_BATCH, stopping);
    },
  };
}

import { takesClicks, webhookSeesOwner, type Webhook } from '../../domain/webhook.js';
import type { Clock } from '../../ports/clock.js';
import { comparePositions } from '../../ports/event-log.js';
import type { NewDelivery, WebhookStore } from '../../ports/webhook-store.js';
import type { WebhookEvent, WebhookEventSource } from './webhook-event-source.js';

export interface FanOutDeps {
  readonly webhooks: WebhookStore;
  readonly clock: Clock;
  readonly newId: () => string;
  /** HOP_WEBHOOK_GIVE_UP_AFTER. */
  readonly giveUpAfterMs: number;
  /** An unpaused webhook takes `link.clicked` (ADR 0131): see WebhookServiceDeps. */
  readonly clicksWanted?: () => void;
}

/**
 * One fan-out step of `source` (ADR 0128): up to `limit` events after its position become
 * one delivery per unpaused webhook subscribed to the event that may see its link and
 * existed when it happened; the deliveries and the new position are stored together.
 * With no unpaused webhook it skips to the log's end without reading an event: webhooks
 * nobody made cost nothing. Returns how many events were read (fewer than `limit`: caught
 * up).
 */
export async function fanOutWebhookEvents(
  deps: FanOutDeps,
  source: WebhookEventSource,
  limit: number,
): Promise<number> {
  let read = 0;
  await deps.webhooks.fanOut(source.name, async (position) => {
    // The end first: a webhook made after the list below hears of what comes after it.
    const end = await source.latest();
    const webhooks = (await deps.webhooks.listWebhooks(null)).filter((hook) => !hook.paused);
    if (webhooks.some(takesClicks)) deps.clicksWanted?.();
    if (webhooks.length === 0) {
      return { deliveries: [], position: comparePositions(end, position) > 0 ? end : position };
    }
    const page = await source.read(position, limit);
    read = page.events.length;
    if (page.events.length === 0) return { deliveries: [], position: page.position };
    const now = deps.clock.now();
    const deliveries = page.events.flatMap((event) =>
      webhooks
        .filter((hook) => isFor(hook, event))
        .map((hook) => deliveryOf(deps, hook, event, bodyOf(event), now)),
    );
    return { deliveries, position: page.position };
  });
  return read;
}

function isFor(webhook: Webhook, event: WebhookEvent): boolean {
  return (
    webhook.events.includes(event.type) &&
    webhookSeesOwner(webhook, event.linkOwner) &&
    event.lastAt >= webhook.createdAt
  );
}

/** Standard Webhooks' body: `{"type", "timestamp", "data"}`, fixed for every attempt. */
function bodyOf(event: WebhookEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: event.data,
  });
}

function deliveryOf(
  deps: FanOutDeps,
  webhook: Webhook,
  event: WebhookEvent,
  body: string,
  now: number,
): NewDelivery {
  const id = deps.newId();
  return {
    id,
    webhookId: webhook.id,
    messageId: `msg_${id}`,
    eventType: event.type,
    body,
    createdAt: now,
    giveUpAt: now + deps.giveUpAfterMs,
  };
}

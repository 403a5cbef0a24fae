import { HopError } from '../../domain/errors.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import type { WebhookDelivery } from '../../domain/webhook.js';
import { findVisibleWebhookOrThrow } from './find-visible-webhook.js';
import type { WebhookServiceDeps } from './webhook-service-deps.js';

const DELIVERY_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export interface DeliveryPage {
  readonly deliveries: readonly WebhookDelivery[];
  /** The cursor of the next page (the last delivery's id), or null at the end. */
  readonly nextCursor: string | null;
}

/** A webhook's deliveries, newest first, `limit` at a time after `cursor`. */
export async function listWebhookDeliveries(
  deps: WebhookServiceDeps,
  principal: Principal,
  webhookId: string,
  page: { readonly cursor: string | undefined; readonly limit: number },
): Promise<DeliveryPage> {
  assertScope(principal, 'webhooks:write');
  const webhook = await findVisibleWebhookOrThrow(deps, principal, webhookId);
  if (page.cursor !== undefined && !DELIVERY_ID.test(page.cursor)) {
    throw new HopError('invalid-cursor', 'The cursor is not one hop handed out.', {
      fields: [{ field: 'cursor', detail: 'not a delivery id' }],
    });
  }
  // One more than asked tells whether there is a next page.
  const found = await deps.webhooks.listDeliveries(webhook.id, {
    before: page.cursor ?? null,
    limit: page.limit + 1,
  });
  const deliveries = found.slice(0, page.limit);
  const last = deliveries.at(-1);
  return {
    deliveries,
    nextCursor: found.length > page.limit && last !== undefined ? last.id : null,
  };
}

/**
 * Queues a delivery again at once (issue 23: a failed one is kept for a manual retry), and
 * retries it for HOP_WEBHOOK_GIVE_UP_AFTER again. A delivered one is sent once more.
 */
export async function retryWebhookDelivery(
  deps: WebhookServiceDeps,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  assertScope(principal, 'webhooks:write');
  const webhook = await findVisibleWebhookOrThrow(deps, principal, webhookId);
  const now = deps.clock.now();
  const queued = await deps.webhooks.requeueDelivery(
    webhook.id,
    deliveryId,
    now,
    now + deps.giveUpAfterMs,
  );
  if (queued === null) throw new HopError('not-found', 'No delivery with this id.');
  return queued;
}

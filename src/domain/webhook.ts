/** Webhooks (issue 23, ADR 0128): who gets told of which link events, and where. */

/** The events a webhook may subscribe to (issue 23). */
export const WEBHOOK_EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** An endpoint that is POSTed the events it subscribes to. */
export interface Webhook {
  /** A ULID. */
  readonly id: string;
  /** Who made it, and whose webhook it is. */
  readonly owner: string;
  /** Made by an admin key: it sees every owner's links; otherwise only `owner`'s. */
  readonly allLinks: boolean;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string | null;
  /** `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
  readonly secret: string;
  /** A paused webhook gets no new deliveries, and its pending ones wait. */
  readonly paused: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event for one webhook, with its attempts so far. */
export interface WebhookDelivery {
  /** A ULID. */
  readonly id: string;
  readonly webhookId: string;
  /** `webhook-id`: the same on every attempt (Standard Webhooks' message id). */
  readonly messageId: string;
  readonly eventType: WebhookEventType;
  /** The JSON body, fixed when the event was fanned out. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** When it is next due (pending); epoch ms. */
  readonly nextAttemptAt: number;
  /** Held by an instance until then (epoch ms); null: nobody holds it. */
  readonly leaseUntil: number | null;
  /** After this (epoch ms) a failed attempt marks it failed rather than retried. */
  readonly giveUpAt: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly lastAttemptAt: number | null;
  readonly createdAt: number;
}

/** True when a webhook made by this owner (or an admin's) may be told of this link's events. */
export function webhookSeesOwner(webhook: Webhook, linkOwner: string): boolean {
  return webhook.allLinks || webhook.owner === linkOwner;
}

/** Whether the webhook is to be sent `link.clicked` now: unpaused, and subscribed to it. */
export function takesClicks(webhook: Webhook): boolean {
  return !webhook.paused && webhook.events.includes('link.clicked');
}

import type { Webhook, WebhookDelivery } from '../domain/webhook.js';

/** A webhook on the wire; the secret only where it was just made. */
export interface WebhookJson {
  id: string;
  owner: string;
  url: string;
  events: string[];
  description: string | null;
  paused: boolean;
  created_at: string;
  updated_at: string;
  secret?: string;
}

export function toWebhookJson(webhook: Webhook, withSecret = false): WebhookJson {
  return {
    id: webhook.id,
    owner: webhook.owner,
    url: webhook.url,
    events: [...webhook.events],
    description: webhook.description,
    paused: webhook.paused,
    created_at: new Date(webhook.createdAt).toISOString(),
    updated_at: new Date(webhook.updatedAt).toISOString(),
    ...(withSecret ? { secret: webhook.secret } : {}),
  };
}

/** A delivery on the wire: status, attempts, and the last attempt's answer and time. */
export function toDeliveryJson(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    webhook_id: delivery.webhookId,
    message_id: delivery.messageId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    next_attempt_at: delivery.status === 'pending' ? isoOrNull(delivery.nextAttemptAt) : null,
    created_at: new Date(delivery.createdAt).toISOString(),
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

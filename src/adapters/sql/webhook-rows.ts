import type {
  DeliveryStatus,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '../../domain/webhook.js';

/** The webhooks table's columns, in the order both engines select them (ADR 0128). */
export const WEBHOOK_COLUMNS =
  'id, owner, all_links, url, events, description, secret, paused, created_at, updated_at';

export const DELIVERY_COLUMNS =
  'id, webhook_id, message_id, event_type, body, status, attempts, next_attempt_at, lease_until, give_up_at, last_status_code, last_error, last_attempt_at, created_at';

/** A row as either driver returns it (SQLite: integers and JSON text; pg: bigint strings, jsonb). */
export interface WebhookRow {
  id: string;
  owner: string;
  all_links: number | boolean;
  url: string;
  events: string | string[];
  description: string | null;
  secret: string;
  paused: number | boolean;
  created_at: number | string;
  updated_at: number | string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  body: string;
  status: string;
  attempts: number;
  next_attempt_at: number | string;
  lease_until: number | string | null;
  give_up_at: number | string;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: number | string | null;
  created_at: number | string;
}

export function webhookFromRow(row: WebhookRow): Webhook {
  const events = typeof row.events === 'string' ? (JSON.parse(row.events) as string[]) : row.events;
  return {
    id: row.id,
    owner: row.owner,
    allLinks: row.all_links === true || row.all_links === 1,
    url: row.url,
    events: events as WebhookEventType[],
    description: row.description,
    secret: row.secret,
    paused: row.paused === true || row.paused === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function deliveryFromRow(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    messageId: row.message_id,
    eventType: row.event_type as WebhookEventType,
    body: row.body,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    leaseUntil: orNull(row.lease_until),
    giveUpAt: Number(row.give_up_at),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastAttemptAt: orNull(row.last_attempt_at),
    createdAt: Number(row.created_at),
  };
}

function orNull(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/** A webhook's values by column name; booleans as 0/1 when `sqlite`. */
export function webhookValues(webhook: Webhook, sqlite: boolean) {
  const flag = (value: boolean) => (sqlite ? (value ? 1 : 0) : value);
  return {
    id: webhook.id,
    owner: webhook.owner,
    all_links: flag(webhook.allLinks),
    url: webhook.url,
    events: JSON.stringify(webhook.events),
    description: webhook.description,
    secret: webhook.secret,
    paused: flag(webhook.paused),
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

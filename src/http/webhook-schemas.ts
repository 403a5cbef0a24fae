/**
 * JSON schemas of `/v1/webhooks` (issue 23). Shapes and types only: URLs and event types
 * are the domain's rules, which name the field they refuse.
 */
const url = {
  type: 'string',
  maxLength: 4096,
  description:
    'Absolute http(s) URL, no credentials, no private, loopback or link-local host (HOP_WEBHOOK_ALLOW_PRIVATE lifts that).',
};
const events = {
  type: 'array',
  maxItems: 16,
  items: { type: 'string', maxLength: 64 },
  description: 'Any of link.created, link.updated, link.deleted, link.clicked.',
};
const description = { type: ['string', 'null'], maxLength: 2000 };

export const createWebhookBody = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: { url, events, description },
} as const;

export const updateWebhookBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    url,
    events,
    description,
    paused: { type: 'boolean', description: 'Paused: no new deliveries, pending ones wait.' },
  },
} as const;

const ulid = { type: 'string', maxLength: 64 };

export const webhookIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: ulid },
} as const;

export const deliveryParams = {
  type: 'object',
  required: ['id', 'delivery'],
  properties: { id: ulid, delivery: ulid },
} as const;

export const deliveriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Default 20.' },
    cursor: { type: 'string', maxLength: 64, description: 'The `next_cursor` of the page before.' },
  },
} as const;

const time = { type: 'string', format: 'date-time' };
const timeOrNull = { type: ['string', 'null'], format: 'date-time' };

export const webhookJson = {
  type: 'object',
  required: ['id', 'owner', 'url', 'events', 'description', 'paused', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    owner: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    description: { type: ['string', 'null'] },
    paused: { type: 'boolean' },
    created_at: time,
    updated_at: time,
    secret: {
      type: 'string',
      description: 'whsec_… (Standard Webhooks): shown when made or rotated, never again.',
    },
  },
} as const;

export const deliveryJson = {
  type: 'object',
  required: [
    'id',
    'webhook_id',
    'message_id',
    'event_type',
    'status',
    'attempts',
    'last_status_code',
    'last_error',
    'last_attempt_at',
    'next_attempt_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    webhook_id: { type: 'string' },
    message_id: {
      type: 'string',
      description: 'The `webhook-id` header: the same on every attempt.',
    },
    event_type: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    last_attempt_at: timeOrNull,
    next_attempt_at: timeOrNull,
    created_at: time,
  },
} as const;

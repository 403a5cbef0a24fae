import type { FastifyInstance } from 'fastify';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../services/webhooks/manage-webhooks.js';
import {
  listWebhookDeliveries,
  retryWebhookDelivery,
} from '../../../services/webhooks/webhook-deliveries.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse } from '../../schemas.js';
import { toDeliveryJson, toWebhookJson } from '../../webhook-json.js';
import {
  createWebhookBody,
  deliveriesQuery,
  deliveryJson,
  deliveryParams,
  updateWebhookBody,
  webhookIdParams,
  webhookJson,
} from '../../webhook-schemas.js';

interface CreateBody {
  url: string;
  events: string[];
  description?: string | null;
}

interface UpdateBody {
  url?: string;
  events?: string[];
  description?: string | null;
  paused?: boolean;
}

interface IdParams {
  id: string;
}

const security = [{ apiKey: [] }];
const tags = ['webhooks'];
const scope = 'webhooks:write' as const;
/** Deliveries per page unless `limit` says otherwise. */
const DEFAULT_DELIVERY_PAGE = 20;
const keyErrors = { 401: problemResponse, 403: problemResponse } as const;
const deliveryList = {
  type: 'object',
  required: ['deliveries', 'next_cursor'],
  properties: {
    deliveries: { type: 'array', items: deliveryJson },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

/** Issue 23 webhook routes (ADR 0128). Handlers only translate between HTTP and the services. */
export function registerWebhookRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.webhookService;

  app.post<{ Body: CreateBody }>(
    '/v1/webhooks',
    {
      config: { scope },
      schema: {
        summary: 'Add a webhook; the answer shows its signing secret, once',
        tags,
        security,
        body: createWebhookBody,
        response: { 201: webhookJson, ...keyErrors, 422: problemResponse },
      },
    },
    async (request, reply) => {
      const webhook = await createWebhook(services, principalOf(request), request.body);
      return reply
        .code(201)
        .header('location', `/v1/webhooks/${webhook.id}`)
        .send(toWebhookJson(webhook, true));
    },
  );

  app.get(
    '/v1/webhooks',
    {
      config: { scope },
      schema: {
        summary: "The key's webhooks (an admin's: everyone's)",
        tags,
        security,
        response: {
          200: {
            type: 'object',
            required: ['webhooks'],
            properties: { webhooks: { type: 'array', items: webhookJson } },
          },
          ...keyErrors,
        },
      },
    },
    async (request) => ({
      webhooks: (await listWebhooks(services, principalOf(request))).map((hook) =>
        toWebhookJson(hook),
      ),
    }),
  );

  app.get<{ Params: IdParams }>(
    '/v1/webhooks/:id',
    {
      config: { scope },
      schema: {
        summary: 'Get one webhook',
        tags,
        security,
        params: webhookIdParams,
        response: { 200: webhookJson, ...keyErrors, 404: problemResponse },
      },
    },
    async (request) =>
      toWebhookJson(await getWebhook(services, principalOf(request), request.params.id)),
  );

  app.patch<{ Params: IdParams; Body: UpdateBody }>(
    '/v1/webhooks/:id',
    {
      config: { scope },
      schema: {
        summary: "Change a webhook's URL, events or description, or pause it",
        tags,
        security,
        params: webhookIdParams,
        body: updateWebhookBody,
        response: { 200: webhookJson, ...keyErrors, 404: problemResponse, 422: problemResponse },
      },
    },
    async (request) =>
      toWebhookJson(
        await updateWebhook(services, principalOf(request), request.params.id, request.body),
      ),
  );

  app.delete<{ Params: IdParams }>(
    '/v1/webhooks/:id',
    {
      config: { scope },
      schema: {
        summary: 'Delete a webhook and its deliveries',
        tags,
        security,
        params: webhookIdParams,
        response: {
          204: { type: 'null', description: 'Deleted.' },
          ...keyErrors,
          404: problemResponse,
        },
      },
    },
    async (request, reply) => {
      await deleteWebhook(services, principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/webhooks/:id/rotate-secret',
    {
      config: { scope },
      schema: {
        summary: 'A new signing secret at once (shown once); the old one stops',
        tags,
        security,
        params: webhookIdParams,
        response: { 200: webhookJson, ...keyErrors, 404: problemResponse },
      },
    },
    async (request) =>
      toWebhookJson(
        await rotateWebhookSecret(services, principalOf(request), request.params.id),
        true,
      ),
  );

  app.get<{ Params: IdParams; Querystring: { limit?: number; cursor?: string } }>(
    '/v1/webhooks/:id/deliveries',
    {
      config: { scope },
      schema: {
        summary: "A webhook's deliveries, newest first: status, attempts, last answer",
        tags,
        security,
        params: webhookIdParams,
        querystring: deliveriesQuery,
        response: { 200: deliveryList, ...keyErrors, 404: problemResponse, 422: problemResponse },
      },
    },
    async (request) => {
      const page = await listWebhookDeliveries(services, principalOf(request), request.params.id, {
        cursor: request.query.cursor,
        limit: request.query.limit ?? DEFAULT_DELIVERY_PAGE,
      });
      return { deliveries: page.deliveries.map(toDeliveryJson), next_cursor: page.nextCursor };
    },
  );

  app.post<{ Params: IdParams & { delivery: string } }>(
    '/v1/webhooks/:id/deliveries/:delivery/retry',
    {
      config: { scope },
      schema: {
        summary: 'Send a delivery again now (a failed one is retried for another window)',
        tags,
        security,
        params: deliveryParams,
        response: { 202: deliveryJson, ...keyErrors, 404: problemResponse },
      },
    },
    async (request, reply) => {
      const { id, delivery } = request.params;
      const queued = await retryWebhookDelivery(services, principalOf(request), id, delivery);
      return reply.code(202).send(toDeliveryJson(queued));
    },
  );
}

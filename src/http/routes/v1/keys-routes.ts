import type { FastifyInstance } from 'fastify';
import {
  assertAdmin,
  issueKey,
  listKeys,
  revokeKey,
  type ApiKeyRecord,
} from '../../../services/keys/manage-keys.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { createKeyBody, keyJson, problemResponse } from '../../schemas.js';

const security = [{ apiKey: [] }];

/** SPEC §3 key routes: admin only. The secret is in the 201 response and nowhere else. */
export function registerKeyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.keyService;

  app.post<{ Body: { owner: string; admin?: boolean } }>(
    '/v1/keys',
    {
      schema: {
        summary: 'Issue an API key (admin)',
        tags: ['keys'],
        security,
        body: createKeyBody,
        response: {
          201: {
            type: 'object',
            required: ['id', 'owner', 'admin', 'key', 'created_at'],
            properties: {
              id: { type: 'string' },
              owner: { type: 'string' },
              admin: { type: 'boolean' },
              key: { type: 'string', description: 'The secret, shown only this once.' },
              created_at: { type: 'string', format: 'date-time' },
            },
          },
          401: problemResponse,
          403: problemResponse,
          422: problemResponse,
        },
      },
    },
    async (request, reply) => {
      assertAdmin(principalOf(request));
      const issued = await issueKey(services, request.body.owner, request.body.admin ?? false);
      return reply.code(201).send({
        id: issued.record.id,
        owner: issued.record.owner,
        admin: issued.record.admin,
        key: issued.key,
        created_at: new Date(issued.record.createdAt).toISOString(),
      });
    },
  );

  app.get(
    '/v1/keys',
    {
      schema: {
        summary: 'List API keys without their secrets (admin)',
        tags: ['keys'],
        security,
        response: {
          200: {
            type: 'object',
            required: ['items'],
            properties: { items: { type: 'array', items: keyJson } },
          },
          401: problemResponse,
          403: problemResponse,
        },
      },
    },
    async (request) => {
      assertAdmin(principalOf(request));
      return { items: (await listKeys(services)).map(toKeyJson) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v1/keys/:id',
    {
      schema: {
        summary: 'Revoke an API key (admin)',
        tags: ['keys'],
        security,
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' } },
        },
        response: {
          204: { type: 'null', description: 'Revoked.' },
          401: problemResponse,
          403: problemResponse,
          404: problemResponse,
        },
      },
    },
    async (request, reply) => {
      assertAdmin(principalOf(request));
      await revokeKey(services, request.params.id);
      return reply.code(204).send();
    },
  );
}

function toKeyJson(record: ApiKeyRecord) {
  return {
    id: record.id,
    owner: record.owner,
    admin: record.admin,
    prefix: record.prefix,
    created_at: new Date(record.createdAt).toISOString(),
    revoked_at: record.revokedAt === null ? null : new Date(record.revokedAt).toISOString(),
  };
}

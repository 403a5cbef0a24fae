import type { FastifyInstance } from 'fastify';
import { issueKey, listKeys, revokeKey } from '../../../services/keys/manage-keys.js';
import type { AppDeps } from '../../app-deps.js';
import { toKeyJson } from '../../key-json.js';
import { principalOf } from '../../principal-of.js';
import { createKeyBody, issuedKeyJson, keyJson, problemResponse } from '../../schemas.js';

const security = [{ apiKey: [] }];

interface CreateKeyBody {
  owner: string;
  admin?: boolean;
  name?: string;
  scopes?: string[];
  domains?: string[];
  expires_at?: string;
}

/**
 * SPEC §3 key routes, scope `keys:write` (ADR 0118): an admin manages every key, any other
 * key its owner's, never beyond what it holds itself. The secret is in the 201 response
 * and nowhere else.
 */
export function registerKeyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.keyService;
  const json = (record: Parameters<typeof toKeyJson>[0]) => toKeyJson(record, services.defaultHost);

  app.post<{ Body: CreateKeyBody }>(
    '/v1/keys',
    {
      config: { scope: 'keys:write' },
      schema: {
        summary: 'Issue an API key',
        description:
          'Only an admin issues admin keys or keys of another owner; a key never gives more scopes or domains than it holds.',
        tags: ['keys'],
        security,
        body: createKeyBody,
        response: {
          201: issuedKeyJson,
          401: problemResponse,
          403: problemResponse,
          422: problemResponse,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const issued = await issueKey(services, principalOf(request), {
        owner: body.owner,
        admin: body.admin,
        name: body.name,
        scopes: body.scopes,
        domains: body.domains,
        expiresAt: body.expires_at,
      });
      return reply.code(201).send({ key: issued.key, ...json(issued.record) });
    },
  );

  app.get(
    '/v1/keys',
    {
      config: { scope: 'keys:write' },
      schema: {
        summary: "List the API keys this key manages (an admin's: all), without their secrets",
        tags: ['keys'],
        security,
        response: {
          200: {
            type: 'object',
            required: ['keys', 'items'],
            properties: {
              keys: { type: 'array', items: keyJson },
              items: {
                type: 'array',
                items: keyJson,
                description: 'The same list as `keys`, as clients made before issue 22 read it.',
              },
            },
          },
          401: problemResponse,
          403: problemResponse,
        },
      },
    },
    async (request) => {
      const keys = (await listKeys(services, principalOf(request))).map(json);
      return { keys, items: keys };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v1/keys/:id',
    {
      config: { scope: 'keys:write' },
      schema: {
        summary: 'Revoke an API key',
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
      await revokeKey(services, principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

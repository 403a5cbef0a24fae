import type { FastifyInstance } from 'fastify';
import { createDomain } from '../../../services/domains/create-domain.js';
import { deleteDomain } from '../../../services/domains/delete-domain.js';
import { getDomain } from '../../../services/domains/get-domain.js';
import { listDomains } from '../../../services/domains/list-domains.js';
import { updateDomain } from '../../../services/domains/update-domain.js';
import type { AppDeps } from '../../app-deps.js';
import { toDomainJson } from '../../domain-json.js';
import {
  createDomainBody,
  domainHostParams,
  domainJson,
  updateDomainBody,
} from '../../domain-schemas.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse } from '../../schemas.js';

interface CreateBody {
  host: string;
  root_redirect?: string | null;
  not_found_redirect?: string | null;
  https?: boolean;
}

type UpdateBody = Omit<CreateBody, 'host'>;

interface HostParams {
  host: string;
}

const security = [{ apiKey: [] }];
const tags = ['domains'];
/** Writes need `domains:write`, reads `links:read` (the route's config.scope, ADR 0118). */
const keyErrors = { 401: problemResponse, 403: problemResponse } as const;

/** Issue 22 domain routes. Handlers only translate between HTTP and the services. */
export function registerDomainRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.domainService;

  app.post<{ Body: CreateBody }>(
    '/v1/domains',
    {
      config: { scope: 'domains:write' },
      schema: {
        summary: 'Add a short domain',
        tags,
        security,
        body: createDomainBody,
        response: { 201: domainJson, ...keyErrors, 409: problemResponse, 422: problemResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const domain = await createDomain(services, principalOf(request), {
        host: body.host,
        rootRedirect: body.root_redirect,
        notFoundRedirect: body.not_found_redirect,
        https: body.https,
      });
      return reply
        .code(201)
        .header('location', `/v1/domains/${domain.host}`)
        .send(toDomainJson(domain));
    },
  );

  app.get(
    '/v1/domains',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: 'List the domains the key may use, the default first',
        tags,
        security,
        response: {
          200: {
            type: 'object',
            required: ['domains'],
            properties: { domains: { type: 'array', items: domainJson } },
          },
          ...keyErrors,
        },
      },
    },
    async (request) => ({
      domains: (await listDomains(services, principalOf(request))).map(toDomainJson),
    }),
  );

  app.get<{ Params: HostParams }>(
    '/v1/domains/:host',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: 'Get one domain',
        tags,
        security,
        params: domainHostParams,
        response: { 200: domainJson, ...keyErrors, 404: problemResponse },
      },
    },
    async (request) =>
      toDomainJson(await getDomain(services, principalOf(request), request.params.host)),
  );

  app.patch<{ Params: HostParams; Body: UpdateBody }>(
    '/v1/domains/:host',
    {
      config: { scope: 'domains:write' },
      schema: {
        summary: "Change a domain's redirects or scheme",
        tags,
        security,
        params: domainHostParams,
        body: updateDomainBody,
        response: { 200: domainJson, ...keyErrors, 404: problemResponse, 422: problemResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const domain = await updateDomain(services, principalOf(request), request.params.host, {
        rootRedirect: body.root_redirect,
        notFoundRedirect: body.not_found_redirect,
        https: body.https,
      });
      return toDomainJson(domain);
    },
  );

  app.delete<{ Params: HostParams }>(
    '/v1/domains/:host',
    {
      config: { scope: 'domains:write' },
      schema: {
        summary: 'Delete a domain no link uses',
        tags,
        security,
        params: domainHostParams,
        response: {
          204: { type: 'null', description: 'Deleted.' },
          ...keyErrors,
          404: problemResponse,
          409: problemResponse,
        },
      },
    },
    async (request, reply) => {
      await deleteDomain(services, principalOf(request), request.params.host);
      return reply.code(204).send();
    },
  );
}

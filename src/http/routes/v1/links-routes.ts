import { NO_CLICKS } from '../../../domain/click-fold.js';
import type { FastifyInstance } from 'fastify';
import type { Link, LinkState } from '../../../domain/link.js';
import { linkClickTotals } from '../../../services/analytics/link-click-totals.js';
import { disableLink, enableLink, deleteLink } from '../../../services/links/change-link-state.js';
import { createLink } from '../../../services/links/create-link.js';
import { getLink } from '../../../services/links/get-link.js';
import { linkQrCode, type QrFormat } from '../../../services/links/link-qr-code.js';
import { listLinks, type LinkSortName } from '../../../services/links/list-links.js';
import { updateLink } from '../../../services/links/update-link.js';
import type { TagsMode } from '../../../domain/link-tags.js';
import type { AppDeps } from '../../app-deps.js';
import { smartFieldsOf } from '../../../services/links/smart-link-fields.js';
import { readIdempotencyKey } from '../../idempotency-key.js';
import {
  createInputOf,
  type CreateBody,
  type PreviewBody,
  type SmartBody,
} from '../../create-link-input.js';
import { toLinkJson } from '../../link-json.js';
import { principalOf } from '../../principal-of.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';
import {
  authErrors,
  createLinkBody,
  linkIdParams,
  linkJson,
  listLinksQuery,
  problemResponse,
  qrQuery,
  updateLinkBody,
} from '../../schemas.js';

interface UpdateBody extends SmartBody, PreviewBody {
  destination?: string;
  status_code?: number;
  expires_at?: string | null;
  title?: string | null;
  tags?: string[];
}

interface ListQuery {
  q?: string;
  state?: LinkState;
  tag?: string | string[];
  tags_mode?: TagsMode;
  exclude_tag?: string | string[];
  domain?: string;
  owner?: string;
  limit?: number;
  cursor?: string;
  sort?: LinkSortName;
}

interface IdParams {
  id: string;
}

const security = [{ apiKey: [] }];
/** Pixels: legible on a screen, small enough to embed. */
const DEFAULT_QR_SIZE = 256;

/** SPEC §3 link routes. Handlers only translate between HTTP and the services. */
export function registerLinkRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.linkService;
  /** Reads the click totals of `links` at once; then renders any of them as JSON. */
  const toJsonWithClicks = async (links: readonly Link[]) => {
    const totals = await linkClickTotals(
      deps.analytics,
      links.map((link) => link.id),
    );
    const now = services.clock.now();
    return (link: Link) =>
      toLinkJson(link, deps.domainRoutes, now, totals.get(link.id) ?? NO_CLICKS);
  };
  const json = async (link: Link) => (await toJsonWithClicks([link]))(link);
  /** A link this request created: nothing has counted a click of it yet, so none is read. */
  const newLinkJson = (link: Link) =>
    toLinkJson(link, deps.domainRoutes, services.clock.now(), NO_CLICKS);

  app.post<{ Body: CreateBody }>(
    '/v1/links',
    {
      config: { scope: 'links:write' },
      schema: {
        summary: 'Create a short link',
        tags: ['links'],
        security,
        body: createLinkBody,
        headers: {
          type: 'object',
          properties: { 'idempotency-key': { type: 'string', description: '1-128 characters.' } },
        },
        response: {
          200: { ...linkJson, description: 'Idempotent replay of an earlier create.' },
          201: linkJson,
          401: problemResponse,
          409: problemResponse,
          422: problemResponse,
          429: problemResponse,
        },
      },
    },
    async (request, reply) => {
      const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
      const result = await createLink(services, principalOf(request), createInputOf(request.body), {
        idempotencyKey,
        client: deps.protection.clientOf(request.raw),
      });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply
        .code(result.replayed ? 200 : 201)
        .headers(rateLimitHeaders(result.quotas))
        .header('location', `/v1/links/${result.link.id}`)
        .send(result.replayed ? await json(result.link) : newLinkJson(result.link));
    },
  );

  app.get<{ Querystring: ListQuery }>(
    '/v1/links',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: 'List links, newest first or in the order of `sort`',
        tags: ['links'],
        security,
        querystring: listLinksQuery,
        response: {
          200: {
            type: 'object',
            required: ['items', 'next_cursor'],
            properties: {
              items: { type: 'array', items: linkJson },
              next_cursor: { type: ['string', 'null'] },
            },
          },
          401: problemResponse,
          403: problemResponse,
          422: problemResponse,
        },
      },
    },
    async (request) => {
      const query = request.query;
      const page = await listLinks(services, principalOf(request), {
        search: query.q,
        state: query.state,
        tags: listOf(query.tag),
        tagsMode: query.tags_mode,
        excludeTags: listOf(query.exclude_tag),
        domain: query.domain,
        owner: query.owner,
        limit: query.limit,
        cursor: query.cursor,
        sort: query.sort,
        clickTotals: (ids) => linkClickTotals(deps.analytics, ids),
      });
      const toJson = await toJsonWithClicks(page.items);
      return { items: page.items.map(toJson), next_cursor: page.nextCursor };
    },
  );

  app.get<{ Params: IdParams; Querystring: { domain?: string } }>(
    '/v1/links/:id',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: 'Get one link',
        tags: ['links'],
        security,
        params: linkIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            domain: {
              type: 'string',
              maxLength: 253,
              description: 'The short domain of a link named by its code; default the default.',
            },
          },
        },
        response: { 200: linkJson, ...authErrors },
      },
    },
    async (request) =>
      json(await getLink(services, principalOf(request), request.params.id, request.query.domain)),
  );

  app.get<{ Params: IdParams; Querystring: { format?: QrFormat; size?: number } }>(
    '/v1/links/:id/qr',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: "QR code of the link's short URL",
        tags: ['links'],
        security,
        params: linkIdParams,
        querystring: qrQuery,
        response: {
          200: { description: 'image/svg+xml or image/png', type: 'string', format: 'binary' },
          ...authErrors,
          422: problemResponse,
        },
      },
    },
    async (request, reply) => {
      const { format = 'svg', size = DEFAULT_QR_SIZE } = request.query;
      const image = await linkQrCode(
        deps.qrCodes,
        principalOf(request),
        request.params.id,
        format,
        size,
      );
      // The short URL of a link never changes (its code is its own for good).
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'private, max-age=3600')
        .send(image.body);
    },
  );

  app.patch<{ Params: IdParams; Body: UpdateBody }>(
    '/v1/links/:id',
    {
      config: { scope: 'links:write' },
      schema: {
        summary: 'Change a link; bumps its version',
        tags: ['links'],
        security,
        params: linkIdParams,
        body: updateLinkBody,
        response: { 200: linkJson, ...authErrors, 422: problemResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const link = await updateLink(services, principalOf(request), request.params.id, {
        destination: body.destination,
        statusCode: body.status_code,
        expiresAt: body.expires_at,
        title: body.title,
        tags: body.tags,
        smart: smartFieldsOf(body),
        preview: body.preview,
        crawlable: body.crawlable,
      });
      return json(link);
    },
  );

  for (const [action, change] of [
    ['disable', disableLink],
    ['enable', enableLink],
  ] as const) {
    app.post<{ Params: IdParams }>(
      `/v1/links/:id/${action}`,
      {
        config: { scope: 'links:write' },
        schema: {
          summary: `${action === 'disable' ? 'Disable' : 'Enable'} a link (idempotent)`,
          tags: ['links'],
          security,
          params: linkIdParams,
          response: { 200: linkJson, ...authErrors },
        },
      },
      async (request) => json(await change(services, principalOf(request), request.params.id)),
    );
  }

  app.delete<{ Params: IdParams }>(
    '/v1/links/:id',
    {
      config: { scope: 'links:write' },
      schema: {
        summary: 'Delete a link, leaving a tombstone',
        tags: ['links'],
        security,
        params: linkIdParams,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...authErrors },
      },
    },
    async (request, reply) => {
      await deleteLink(services, principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/** A repeatable query parameter: absent, once (a string) or repeated (an array). */
function listOf(value: string | string[] | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : [value].flat();
}

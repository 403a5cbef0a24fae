import type { FastifyInstance } from 'fastify';
import { BROWSER_CLASSES, DEVICE_CLASSES, OS_CLASSES } from '../../../domain/click-event.js';
import {
  DEFAULT_VISITS_LIMIT,
  listLinkVisits,
  MAX_VISITS_LIMIT,
  VISIT_FIELDS,
} from '../../../services/analytics/list-link-visits.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { authErrors, linkDomainQuery, linkIdParams, problemResponse } from '../../schemas.js';

interface VisitsQueryString {
  from?: string;
  to?: string;
  cursor?: string;
  limit?: string;
  domain?: string;
}

const nullableString = { type: ['string', 'null'] };

/** Issue 23 `GET /v1/links/{id}/visits` (ADR 0125). */
export function registerVisitRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { id: string }; Querystring: VisitsQueryString }>(
    '/v1/links/:id/visits',
    {
      config: { scope: 'analytics:read' },
      schema: {
        summary: "A link's visits, newest first: one per counted click (HOP_VISIT_LOG)",
        tags: ['analytics'],
        security: [{ apiKey: [] }],
        params: linkIdParams,
        querystring: {
          type: 'object',
          properties: {
            from: {
              type: 'string',
              description: 'RFC 3339, inclusive. Default: 90 days before to.',
            },
            to: { type: 'string', description: 'RFC 3339, exclusive. Default: now.' },
            cursor: {
              type: 'string',
              maxLength: 64,
              description: "The previous page's next_cursor.",
            },
            limit: {
              type: 'string',
              description: `Visits per page, 1 to ${MAX_VISITS_LIMIT}; default ${DEFAULT_VISITS_LIMIT}.`,
            },
            domain: linkDomainQuery,
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['visits', 'next_cursor'],
            properties: {
              visits: {
                type: 'array',
                items: {
                  type: 'object',
                  required: [...VISIT_FIELDS],
                  properties: {
                    at: {
                      type: 'string',
                      format: 'date-time',
                      description: "The start of the click's second.",
                    },
                    country: {
                      ...nullableString,
                      description: 'ISO 3166-1 alpha-2; null unknown.',
                    },
                    city: {
                      ...nullableString,
                      description: 'Null unless a City database places it.',
                    },
                    device: { type: 'string', enum: [...DEVICE_CLASSES] },
                    os: { type: 'string', enum: [...OS_CLASSES] },
                    browser: { type: 'string', enum: [...BROWSER_CLASSES] },
                    language: {
                      ...nullableString,
                      description:
                        "Accept-Language's primary subtag, lower case (en); null unknown.",
                    },
                    referrer_host: nullableString,
                    bot: { type: 'boolean', description: 'A crawler or unfurler (ADR 0094).' },
                  },
                },
              },
              next_cursor: {
                ...nullableString,
                description: 'Pass as cursor for the next (older) page; null after the last.',
              },
            },
          },
          ...authErrors,
          400: problemResponse,
          422: problemResponse,
        },
      },
    },
    async (request) => {
      const page = await listLinkVisits(
        deps.analytics,
        principalOf(request),
        request.params.id,
        request.query,
      );
      return {
        visits: page.visits.map((visit) => ({
          at: new Date(visit.at).toISOString(),
          country: visit.country,
          city: visit.city,
          device: visit.device,
          os: visit.os,
          browser: visit.browser,
          language: visit.language,
          referrer_host: visit.referrerHost,
          bot: visit.bot,
        })),
        next_cursor: page.nextCursor,
      };
    },
  );
}

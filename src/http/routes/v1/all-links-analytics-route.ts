import type { FastifyInstance } from 'fastify';
import { BROWSER_CLASSES, OS_CLASSES } from '../../../domain/click-event.js';
import { TAGS_MODES, type TagsMode } from '../../../domain/link-tags.js';
import {
  getAllLinksAnalytics,
  MAX_BREAKDOWN_VALUES,
  MAX_LINK_FILTER,
  TOP_LINKS,
} from '../../../services/analytics/get-all-links-analytics.js';
import { ANALYTICS_BUCKETS } from '../../../services/analytics/get-link-analytics.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse, repeatableTag } from '../../schemas.js';
import {
  analyticsJson,
  counts as countsOf,
  rangeQueryProperties,
  seriesJson,
} from './analytics-routes.js';

interface Query {
  from?: string;
  to?: string;
  bucket?: string;
  domain?: string;
  tag?: string | string[];
  tags_mode?: TagsMode;
  link?: string | string[];
}

const counts = (key: string, description: string) => ({ ...countsOf(key), description });

const cut = `at most ${MAX_BREAKDOWN_VALUES} values, the rest summed as "other", so it sums to total`;

const listOf = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** Issue 23: `GET /v1/analytics`, the caller's clicks across all its links (ADR 0126). */
export function registerAllLinksAnalyticsRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: Query }>(
    '/v1/analytics',
    {
      config: { scope: 'analytics:read' },
      schema: {
        summary:
          "Clicks across all the caller's links: totals, a series, the top links and breakdowns",
        description:
          "An owner's key sums its owner's links, a key limited to domains those domains' links, an admin's every link; deleted links are left out.",
        tags: ['analytics'],
        security: [{ apiKey: [] }],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...rangeQueryProperties,
            domain: {
              type: 'string',
              maxLength: 253,
              description:
                "Only links on this short domain (HOP_PUBLIC_URL's host for the default); an unknown one is 422.",
            },
            tag: repeatableTag('Only links with this tag; repeat for several (see tags_mode).'),
            tags_mode: {
              type: 'string',
              enum: [...TAGS_MODES],
              description: 'any (default): links with any of the tags; all: links with every one.',
            },
            link: {
              anyOf: [
                { type: 'string', maxLength: 64 },
                {
                  type: 'array',
                  maxItems: MAX_LINK_FILTER,
                  items: { type: 'string', maxLength: 64 },
                },
              ],
              description: `Only this link (an id); repeat for up to ${MAX_LINK_FILTER}. One the caller cannot see is 422.`,
            },
          },
        },
        response: {
          200: {
            type: 'object',
            required: [
              'from',
              'to',
              'bucket',
              'total',
              'bot_clicks',
              'series',
              'top_links',
              'by_country',
              'by_device',
              'by_referrer',
              'by_browser',
              'by_os',
              'freshness',
            ],
            properties: {
              from: { type: 'string', format: 'date-time' },
              to: { type: 'string', format: 'date-time' },
              bucket: { type: 'string', enum: [...ANALYTICS_BUCKETS] },
              total: {
                type: 'integer',
                description: "People's clicks in the range; bots' are in bot_clicks alone.",
              },
              bot_clicks: {
                type: 'integer',
                description: 'Clicks of crawlers and link unfurlers, counted apart (ADR 0094).',
              },
              series: seriesJson,
              top_links: {
                type: 'array',
                description: `The ${TOP_LINKS} links with the most clicks in the range, most first.`,
                items: {
                  type: 'object',
                  required: ['id', 'code', 'domain', 'short_url', 'title', 'clicks', 'bot_clicks'],
                  properties: {
                    id: { type: 'string' },
                    code: { type: 'string' },
                    domain: { type: 'string' },
                    short_url: { type: 'string' },
                    title: { type: ['string', 'null'] },
                    clicks: { type: 'integer' },
                    bot_clicks: { type: 'integer' },
                  },
                },
              },
              by_country: counts('country', `Clicks per country, most first; ${cut}.`),
              by_device: counts('device', `Clicks per device class, most first; ${cut}.`),
              by_referrer: counts(
                'referrer',
                `Clicks per referrer host, most first ("" is none); ${cut}.`,
              ),
              by_browser: counts(
                'browser',
                `Clicks per browser, most first: ${BROWSER_CLASSES.join(', ')}.`,
              ),
              by_os: counts(
                'os',
                `Clicks per operating system, most first: ${OS_CLASSES.join(', ')}.`,
              ),
              freshness: {
                type: ['string', 'null'],
                format: 'date-time',
                description: 'Time of the newest click folded into the counts (null before any).',
              },
            },
          },
          400: problemResponse,
          401: problemResponse,
          403: problemResponse,
          422: problemResponse,
        },
      },
    },
    async (request) => {
      const query = request.query;
      const analytics = await getAllLinksAnalytics(deps.analytics, principalOf(request), {
        from: query.from,
        to: query.to,
        bucket: query.bucket,
        domain: query.domain,
        tags: listOf(query.tag),
        tagsMode: query.tags_mode,
        linkIds: listOf(query.link),
      });
      return {
        ...analyticsJson(analytics),
        top_links: analytics.topLinks.map((link) => ({
          id: link.linkId,
          code: link.code,
          domain: deps.domainRoutes.hostOf(link.domain),
          short_url: deps.domainRoutes.shortUrlOf(link.domain, link.code),
          title: link.title,
          clicks: link.clicks,
          bot_clicks: link.botClicks,
        })),
      };
    },
  );
}

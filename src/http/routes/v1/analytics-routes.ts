import type { FastifyInstance } from 'fastify';
import { BROWSER_CLASSES, OS_CLASSES } from '../../../domain/click-event.js';
import {
  ANALYTICS_BUCKETS,
  getLinkAnalytics,
  type ClickCount,
  type LinkAnalytics,
  MAX_SERIES_POINTS,
} from '../../../services/analytics/get-link-analytics.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { authErrors, linkDomainQuery, linkIdParams, problemResponse } from '../../schemas.js';

interface AnalyticsQueryString {
  from?: string;
  to?: string;
  bucket?: string;
  domain?: string;
}

export const counts = (key: string) => ({
  type: 'array',
  description: `Clicks per ${key} in the range, most first (bots' left out: they sum to total).`,
  items: {
    type: 'object',
    required: [key, 'clicks'],
    properties: { [key]: { type: 'string' }, clicks: { type: 'integer' } },
  },
});

/** `from`, `to` and `bucket` of both analytics routes. */
export const rangeQueryProperties = {
  from: {
    type: 'string',
    description:
      'RFC 3339; rounded down to the bucket. Default: 7 days (hour) or 30 days (day) before now.',
  },
  to: {
    type: 'string',
    description:
      'RFC 3339, exclusive; rounded up to the bucket. Default: the end of the bucket now is in.',
  },
  bucket: {
    type: 'string',
    enum: [...ANALYTICS_BUCKETS],
    description: `Series step (UTC); at most ${MAX_SERIES_POINTS} points. Default hour.`,
  },
} as const;

/** Every bucket of the range, oldest first, empty ones included. */
export const seriesJson = {
  type: 'array',
  items: {
    type: 'object',
    required: ['start', 'clicks', 'bot_clicks'],
    properties: {
      start: { type: 'string', format: 'date-time' },
      clicks: { type: 'integer' },
      bot_clicks: { type: 'integer' },
    },
  },
} as const;

/** SPEC §3 `GET /v1/links/{id}/analytics`. */
export function registerAnalyticsRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { id: string }; Querystring: AnalyticsQueryString }>(
    '/v1/links/:id/analytics',
    {
      config: { scope: 'analytics:read' },
      schema: {
        summary:
          "A link's clicks over time and by country, device, referrer, browser, operating system and city",
        tags: ['analytics'],
        security: [{ apiKey: [] }],
        params: linkIdParams,
        querystring: {
          type: 'object',
          properties: {
            ...rangeQueryProperties,
            domain: linkDomainQuery,
          },
        },
        response: {
          200: {
            type: 'object',
            required: [
              'link_id',
              'from',
              'to',
              'bucket',
              'total',
              'bot_clicks',
              'series',
              'by_country',
              'by_device',
              'by_referrer',
              'by_browser',
              'by_os',
              'by_city',
              'freshness',
            ],
            properties: {
              link_id: { type: 'string' },
              from: { type: 'string', format: 'date-time' },
              to: { type: 'string', format: 'date-time' },
              bucket: { type: 'string', enum: [...ANALYTICS_BUCKETS] },
              total: {
                type: 'integer',
                description: "Clicks in the range; bots' are not among them (bot_clicks).",
              },
              bot_clicks: {
                type: 'integer',
                description:
                  'Clicks of crawlers and link unfurlers in the range, counted apart: in no other figure.',
              },
              series: seriesJson,
              by_country: counts('country'),
              by_device: counts('device'),
              by_referrer: {
                ...counts('referrer'),
                description:
                  'Clicks per referrer host, most first; "" is no referrer, "other" the rest.',
              },
              by_browser: {
                ...counts('browser'),
                description: `Clicks per browser, most first: ${BROWSER_CLASSES.join(', ')}.`,
              },
              by_os: {
                ...counts('os'),
                description: `Clicks per operating system, most first: ${OS_CLASSES.join(', ')}.`,
              },
              by_city: {
                ...counts('city'),
                description:
                  'Clicks per city (English name), most first; "other" past the bound per link and hour. Empty unless HOP_GEOIP_DB is a City database.',
              },
              freshness: {
                type: ['string', 'null'],
                format: 'date-time',
                description: 'Time of the newest click folded into the counts (null before any).',
              },
            },
          },
          ...authErrors,
          422: problemResponse,
        },
      },
    },
    async (request) => {
      const analytics = await getLinkAnalytics(
        deps.analytics,
        principalOf(request),
        request.params.id,
        request.query,
      );
      return {
        link_id: request.params.id,
        ...analyticsJson(analytics),
        by_city: namedCounts('city', analytics.byCity),
      };
    },
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Rows of one dimension as the wire names them: `{"country": "DE", "clicks": 3}`. */
export function namedCounts(key: string, rows: readonly ClickCount[]) {
  return rows.map((row) => ({ [key]: row.value, clicks: row.clicks }));
}

/** What both analytics routes answer alike: the range, totals, series and breakdowns. */
export function analyticsJson(analytics: Omit<LinkAnalytics, 'byCity'>) {
  return {
    from: iso(analytics.from),
    to: iso(analytics.to),
    bucket: analytics.bucket,
    total: analytics.total,
    bot_clicks: analytics.botClicks,
    series: analytics.series.map((point) => ({
      start: iso(point.start),
      clicks: point.clicks,
      bot_clicks: point.botClicks,
    })),
    by_country: namedCounts('country', analytics.byCountry),
    by_device: namedCounts('device', analytics.byDevice),
    by_referrer: namedCounts('referrer', analytics.byReferrer),
    by_browser: namedCounts('browser', analytics.byBrowser),
    by_os: namedCounts('os', analytics.byOs),
    freshness: analytics.freshness === null ? null : iso(analytics.freshness),
  };
}

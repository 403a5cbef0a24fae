import type { FastifyInstance } from 'fastify';
import { HopError } from '../../../domain/errors.js';
import type { AppDeps } from '../../app-deps.js';
import { linkCountsSchema, toLinkCountsJson } from '../../link-counts-json.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse } from '../../schemas.js';

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** `GET /v1/stats` (admin, ADR 0050): the code space, the guess probability, the sweeper. */
export function registerStatsRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/v1/stats',
    {
      config: { scope: 'analytics:read' },
      schema: {
        summary: 'Service statistics: code space, guess probability, creates, sweeper (admin)',
        tags: ['stats'],
        security: [{ apiKey: [] }],
        response: {
          200: {
            type: 'object',
            required: ['links', 'codes', 'creates', 'sweeper'],
            properties: {
              links: linkCountsSchema,
              codes: {
                type: 'object',
                required: [
                  'strategy',
                  'length',
                  'alphabet_size',
                  'code_space',
                  'guess_probability',
                  'guess_bound',
                  'over_bound',
                  'pool_remaining',
                ],
                properties: {
                  strategy: { type: 'string' },
                  length: { type: 'integer' },
                  alphabet_size: { type: 'integer' },
                  code_space: { type: 'number' },
                  guess_probability: {
                    ...nullableNumber,
                    description: 'Active links / code space; null until the first count.',
                  },
                  guess_bound: { type: 'number' },
                  over_bound: { type: 'boolean' },
                  pool_remaining: nullableNumber,
                },
              },
              creates: {
                type: 'object',
                required: [
                  'links_created',
                  'insert_attempts',
                  'store_round_trips',
                  'store_round_trips_per_create',
                ],
                properties: {
                  links_created: { type: 'integer' },
                  insert_attempts: {
                    type: 'integer',
                    description:
                      'Conditional inserts tried; above links_created when codes were taken.',
                  },
                  store_round_trips: { type: 'integer' },
                  store_round_trips_per_create: nullableNumber,
                },
              },
              sweeper: {
                type: 'object',
                required: ['runs', 'failures', 'expired', 'reclaimed', 'last_run_at'],
                properties: {
                  runs: { type: 'integer' },
                  failures: { type: 'integer' },
                  expired: { type: 'integer' },
                  reclaimed: { type: 'integer' },
                  last_run_at: nullableTime,
                },
              },
            },
          },
          401: problemResponse,
          403: problemResponse,
        },
      },
    },
    async (request) => {
      if (!principalOf(request).admin) {
        throw new HopError('forbidden', 'Only an admin key may read service statistics.');
      }
      const links = await deps.linkCounts();
      const stats = deps.stats();
      return {
        links: toLinkCountsJson(links),
        codes: {
          strategy: stats.strategy,
          length: stats.codeLength,
          alphabet_size: stats.alphabetSize,
          code_space: stats.codeSpace,
          guess_probability: stats.guessProbability,
          guess_bound: stats.guessBound,
          over_bound: stats.overBound,
          pool_remaining: stats.poolRemaining,
        },
        creates: {
          links_created: stats.linksCreated,
          insert_attempts: stats.insertAttempts,
          store_round_trips: stats.createStoreRoundTrips,
          store_round_trips_per_create:
            stats.linksCreated === 0 ? null : stats.createStoreRoundTrips / stats.linksCreated,
        },
        sweeper: {
          runs: stats.sweeps.runs,
          failures: stats.sweeps.failures,
          expired: stats.sweeps.expired,
          reclaimed: stats.sweeps.reclaimed,
          last_run_at:
            stats.sweeps.lastRunAt === null ? null : new Date(stats.sweeps.lastRunAt).toISOString(),
        },
      };
    },
  );
}

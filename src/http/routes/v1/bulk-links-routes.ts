import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NO_CLICKS } from '../../../domain/click-fold.js';
import { isHopError } from '../../../domain/errors.js';
import type { Link } from '../../../domain/link.js';
import { linkClickTotals } from '../../../services/analytics/link-click-totals.js';
import { deleteLinks, patchLinks } from '../../../services/links/bulk/change-links.js';
import { createLinks } from '../../../services/links/bulk/create-links.js';
import type { ItemOutcome } from '../../../services/links/bulk/run-items.js';
import { runBulkCall, type BulkRequest } from '../../../services/links/bulk/run-bulk-call.js';
import type { CreateLinkInput } from '../../../services/links/create-link.js';
import type { AppDeps } from '../../app-deps.js';
import {
  bulkCreateAnswer,
  bulkCreateBody,
  bulkDeleteAnswer,
  bulkDeleteBody,
  bulkPatchAnswer,
  bulkPatchBody,
} from '../../bulk-schemas.js';
import { createInputOf, type CreateBody } from '../../create-link-input.js';
import { describeValidation, type AjvIssue } from '../../error-handling.js';
import { readIdempotencyKey } from '../../idempotency-key.js';
import { toLinkJson, type LinkJson } from '../../link-json.js';
import { principalOf } from '../../principal-of.js';
import { problemBody, type ProblemBody } from '../../problems.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';
import { createLinkBody, problemResponse } from '../../schemas.js';
import { compileBodyValidator } from '../../validator-compiler.js';

interface PatchBody {
  ids: string[];
  patch: {
    destination?: string;
    expires_at?: string | null;
    tags?: string[];
    add_tags?: string[];
    remove_tags?: string[];
    state?: 'active' | 'disabled';
  };
}

/** One item's result on the wire: what its single call would have answered. */
interface ItemResult {
  index?: number;
  id?: string;
  status: number;
  link?: LinkJson;
  problem?: ProblemBody;
}

const security = [{ apiKey: [] }];
const idempotencyHeader = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      description: '1-128 characters; covers the whole call for 24 hours.',
    },
  },
} as const;
const callErrors = {
  401: problemResponse,
  403: problemResponse,
  409: problemResponse,
  413: problemResponse,
  422: problemResponse,
} as const;

/**
 * Issue 22 bulk routes (ADR 0120): each item is answered as its single call would be, in a
 * 207 listing every item's status. Bodies may be larger than elsewhere, up to a bound.
 */
export function registerBulkLinkRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.linkService;
  const validateItem = compileBodyValidator(createLinkBody);
  const bodyLimit = deps.bulkBodyLimitBytes;

  /** Runs the call once per Idempotency-Key and sends its answer (the first one, on a replay). */
  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    call: BulkRequest,
    run: () => Promise<ItemResult[]>,
  ) => {
    const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
    const result = await runBulkCall(
      deps.bulkCalls,
      principalOf(request),
      idempotencyKey,
      call,
      async () => JSON.stringify({ results: await run() }),
    );
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(207).type('application/json; charset=utf-8').send(result.answer);
  };

  /** An item's problem as its single call would have sent it (without a request id of its own). */
  const problemOf = (request: FastifyRequest, error: unknown): ProblemBody => {
    if (isHopError(error)) return problemBody(error.kind, error.detail, undefined, error.fields);
    request.log.error({ err: error }, 'unhandled error in a bulk item');
    return problemBody('internal-error', 'Something went wrong on our side.', undefined);
  };

  app.post<{ Body: { links: unknown[] } }>(
    '/v1/links/bulk',
    {
      bodyLimit,
      config: { scope: 'links:write' },
      schema: {
        summary: 'Create up to 1,000 links, each as POST /v1/links would',
        tags: ['links'],
        security,
        body: bulkCreateBody,
        headers: idempotencyHeader,
        response: { 207: bulkCreateAnswer, ...callErrors },
      },
    },
    async (request, reply) =>
      answer(request, reply, { operation: 'create', body: request.body }, async () => {
        const items = request.body.links;
        const results = new Array<ItemResult>(items.length);
        const inputs: CreateLinkInput[] = [];
        const indexes: number[] = [];
        items.forEach((item, index) => {
          if (validateItem(item)) {
            inputs.push(createInputOf(item as CreateBody));
            indexes.push(index);
            return;
          }
          const issues = (validateItem.errors ?? []) as unknown as AjvIssue[];
          const { detail, fields } = describeValidation('body', issues);
          results[index] = {
            index,
            status: 422,
            problem: problemBody('invalid-request', detail, undefined, fields),
          };
        });
        const created = await createLinks(services, principalOf(request), inputs, {
          client: deps.protection.clientOf(request.raw),
        });
        reply.headers(rateLimitHeaders(created.quotas));
        const now = services.clock.now();
        created.outcomes.forEach((outcome, i) => {
          const index = indexes[i] as number;
          results[index] = outcome.ok
            ? {
                index,
                status: 201,
                // A link just made has no clicks yet: no read of its totals.
                link: toLinkJson(outcome.value.link, deps.domainRoutes, now, NO_CLICKS),
              }
            : { index, ...failed(problemOf(request, outcome.error)) };
        });
        return results;
      }),
  );

  app.patch<{ Body: PatchBody }>(
    '/v1/links/bulk',
    {
      bodyLimit,
      config: { scope: 'links:write' },
      schema: {
        summary: 'Change up to 1,000 links by id, each as PATCH (and enable/disable) would',
        tags: ['links'],
        security,
        body: bulkPatchBody,
        headers: idempotencyHeader,
        response: { 207: bulkPatchAnswer, ...callErrors },
      },
    },
    async (request, reply) =>
      answer(request, reply, { operation: 'patch', body: request.body }, async () => {
        const { ids, patch } = request.body;
        const outcomes = await patchLinks(services, principalOf(request), ids, {
          destination: patch.destination,
          expiresAt: patch.expires_at,
          tags: patch.tags,
          addTags: patch.add_tags,
          removeTags: patch.remove_tags,
          state: patch.state,
        });
        const changed = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.value] : []));
        const totals = await linkClickTotals(
          deps.analytics,
          changed.map((link) => link.id),
        );
        const now = services.clock.now();
        const linkJson = (link: Link) =>
          toLinkJson(link, deps.domainRoutes, now, totals.get(link.id) ?? NO_CLICKS);
        return resultsById(
          ids,
          outcomes,
          (link) => ({ status: 200, link: linkJson(link) }),
          (e) => problemOf(request, e),
        );
      }),
  );

  app.delete<{ Body: { ids: string[] } }>(
    '/v1/links/bulk',
    {
      bodyLimit,
      config: { scope: 'links:write' },
      schema: {
        summary: 'Delete up to 1,000 links by id, each as DELETE would',
        tags: ['links'],
        security,
        body: bulkDeleteBody,
        headers: idempotencyHeader,
        response: { 207: bulkDeleteAnswer, ...callErrors },
      },
    },
    async (request, reply) =>
      answer(request, reply, { operation: 'delete', body: request.body }, async () => {
        const { ids } = request.body;
        const outcomes = await deleteLinks(services, principalOf(request), ids);
        return resultsById(
          ids,
          outcomes,
          () => ({ status: 204 }),
          (e) => problemOf(request, e),
        );
      }),
  );
}

function failed(problem: ProblemBody): Pick<ItemResult, 'status' | 'problem'> {
  return { status: problem.status, problem };
}

function resultsById<T>(
  ids: readonly string[],
  outcomes: readonly ItemOutcome<T>[],
  done: (value: T) => Omit<ItemResult, 'id'>,
  problemOf: (error: unknown) => ProblemBody,
): ItemResult[] {
  return outcomes.map((outcome, i) => {
    const id = ids[i] as string;
    return outcome.ok
      ? { id, ...done(outcome.value) }
      : { id, ...failed(problemOf(outcome.error)) };
  });
}

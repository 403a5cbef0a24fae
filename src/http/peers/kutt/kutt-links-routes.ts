import type { FastifyInstance } from 'fastify';
import { isLinkIdShaped } from '../../../domain/alias-rules.js';
import type { Link } from '../../../domain/link.js';
import type { Principal } from '../../../domain/principal.js';
import { deleteLink } from '../../../services/links/change-link-state.js';
import { checkDestinationOrThrow } from '../../../services/links/check-destination-or-throw.js';
import { createLink } from '../../../services/links/create-link.js';
import { getLink } from '../../../services/links/get-link.js';
import { updateLink } from '../../../services/links/update-link.js';
import type { AppDeps } from '../../app-deps.js';
import { outsideOpenApi } from './outside-openapi.js';
import { principalOf } from '../../principal-of.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';
import { KuttRefusal } from './kutt-errors.js';
import { readKuttCreate, readKuttEdit, type KuttCreate, type KuttEdit } from './kutt-link-input.js';
import { kuttLinksJson, type KuttLinkJson } from './kutt-link-json.js';
import { findOwnLinkTo } from '../../../services/links/find-own-link-to.js';
import { listLinkRange } from '../../../services/links/list-link-page.js';
import { kuttLinkStats } from './kutt-stats.js';

interface IdParams {
  id: string;
}

/** Kutt's list defaults and cap (helpers.handler.js `parseQuery`). */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

/** Kutt's links routes (link.routes.js), each a translation onto hop's link services. */
export function registerKuttLinkRoutes(api: FastifyInstance, deps: AppDeps): void {
  const services = deps.linkService;
  const json = async (link: Link): Promise<KuttLinkJson> => {
    const [rendered] = await kuttLinksJson(deps, [link], services.clock.now());
    if (rendered === undefined) throw new Error('a link renders as one Kutt link');
    return rendered;
  };

  api.get<{ Querystring: Record<string, unknown> }>(
    '/links',
    { schema: outsideOpenApi(), config: { scope: 'links:read' } },
    async (request) => {
      const principal = principalOf(request);
      const { limit, skip, search, all } = readListQuery(request.query);
      // Kutt v2's `all`: an admin sees every owner's links; otherwise one's own, admins too.
      const owner = all && principal.admin ? undefined : principal.owner;
      const page = await listLinkRange(services, principal, {
        owner,
        search,
        offset: skip,
        count: limit,
      });
      const data = await kuttLinksJson(deps, page.items, services.clock.now());
      return { total: page.total, limit, skip, data };
    },
  );

  api.post(
    '/links',
    { schema: outsideOpenApi(), config: { scope: 'links:write' } },
    async (request, reply) => {
      const principal = principalOf(request);
      const asked = readKuttCreate(request.body, services.clock.now());
      if (asked.reuse) {
        const existing = await reusableLink(deps, principal, asked);
        // Kutt answers a reused link with 200, a new one with 201.
        if (existing !== null) return reply.code(200).send(await json(existing));
      }
      const result = await createLink(services, principal, createInputOf(asked), {
        client: deps.protection.clientOf(request.raw),
      });
      return reply
        .code(201)
        .headers(rateLimitHeaders(result.quotas))
        .send(await json(result.link));
    },
  );

  api.patch<{ Params: IdParams }>(
    '/links/:id',
    {
      schema: outsideOpenApi(),
      config: { scope: 'links:write', kuttNotFound: 'Link was not found.' },
    },
    async (request) => {
      const principal = principalOf(request);
      const id = linkIdOf(request.params.id);
      const edit = readKuttEdit(request.body, services.clock.now());
      const current = await getLink(services, principal, id);
      const change = changeOf(current, edit);
      return json(await updateLink(services, principal, id, change));
    },
  );

  api.delete<{ Params: IdParams }>(
    '/links/:id',
    {
      schema: outsideOpenApi(),
      config: { scope: 'links:write', kuttNotFound: 'Could not find the link.' },
    },
    async (request) => {
      await deleteLink(services, principalOf(request), linkIdOf(request.params.id));
      return { message: 'Link has been deleted successfully.' };
    },
  );

  api.get<{ Params: IdParams }>(
    '/links/:id/stats',
    {
      schema: outsideOpenApi(),
      config: { scope: 'analytics:read', kuttNotFound: 'Link could not be found.' },
    },
    async (request) => {
      const principal = principalOf(request);
      const id = linkIdOf(request.params.id);
      const link = await getLink(services, principal, id);
      const stats = await kuttLinkStats(deps.analytics, principal, link.id);
      // Kutt's order: the periods, then the link's own fields.
      return { ...stats, ...(await json(link)) };
    },
  );
}

/**
 * Kutt addresses a link by its id (validators: 36 characters, else 400 "ID is invalid.").
 * hop's ids are 26-character ULIDs, handed out as Kutt's `id`: those are taken, anything
 * else is Kutt's 400 (ADR 0134), so a code is never read as an id here.
 */
function linkIdOf(id: string): string {
  if (!isLinkIdShaped(id)) throw new KuttRefusal(400, 'ID is invalid.');
  return id;
}

interface ListQuery {
  readonly limit: number;
  readonly skip: number;
  readonly search: string | undefined;
  readonly all: boolean;
}

/** Kutt's `parseQuery`: whole numbers, limit 10 by default and 50 at most. */
function readListQuery(query: Record<string, unknown>): ListQuery {
  const limit = wholeNumber(query['limit'], 'limit') || DEFAULT_LIMIT;
  const skip = wholeNumber(query['skip'], 'skip');
  const search = query['search'];
  if (search !== undefined && typeof search !== 'string') {
    throw new KuttRefusal(400, 'search query is not valid.');
  }
  return {
    limit: Math.min(limit, MAX_LIMIT),
    skip,
    search: search === undefined || search.trim() === '' ? undefined : search,
    all: query['all'] === 'true',
  };
}

/** `parseInt(value) || 0` as Kutt reads it; a negative one (an SQL error there) is a 400. */
function wholeNumber(value: unknown, name: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string') throw new KuttRefusal(400, `${name} query is not valid.`);
  const parsed = Number.parseInt(value, 10);
  if (Number.isNaN(parsed)) return 0;
  if (parsed < 0 || !Number.isSafeInteger(parsed)) {
    throw new KuttRefusal(400, `${name} query is not valid.`);
  }
  return parsed;
}

function createInputOf(asked: KuttCreate) {
  return {
    destination: asked.target,
    alias: asked.customurl,
    expiresAt: asked.expiresAt,
    title: asked.description,
    domain: asked.domain,
    smart: asked.password === undefined ? undefined : { password: asked.password },
  };
}

/** Kutt's `reuse`: the caller's link to the same target on the same domain, if any. */
async function reusableLink(
  deps: AppDeps,
  principal: Principal,
  asked: KuttCreate,
): Promise<Link | null> {
  const services = deps.linkService;
  // The target as hop would store it; a target hop refuses is refused here, as by the create.
  const destination = checkDestinationOrThrow(asked.target, services.destinationPolicy);
  return findOwnLinkTo(services, principal, destination, asked.domain ?? services.defaultHost);
}

/**
 * A Kutt edit as hop's update: values equal to the link's are no change, and an edit that
 * changes nothing is Kutt's "Should at least update one field." (a 400 here, ADR 0134). A
 * link's address is its code, which hop never changes: asking for another one is a 400.
 */
function changeOf(current: Link, edit: KuttEdit) {
  if (edit.address !== undefined && edit.address !== current.code) {
    throw new KuttRefusal(
      400,
      "hop never changes a link's address (its code is its own for good); create a new link with customurl instead.",
    );
  }
  const target = edit.target === current.destination ? undefined : edit.target;
  const description =
    edit.description === (current.title ?? undefined) ? undefined : edit.description;
  const hasPassword = current.smart?.passwordHash != null;
  const password = edit.password === null && !hasPassword ? undefined : edit.password;
  if (
    target === undefined &&
    description === undefined &&
    edit.expiresAt === undefined &&
    password === undefined
  ) {
    throw new KuttRefusal(400, 'Should at least update one field.');
  }
  return {
    destination: target,
    title: description,
    expiresAt: edit.expiresAt,
    smart: password === undefined ? undefined : { password },
  };
}

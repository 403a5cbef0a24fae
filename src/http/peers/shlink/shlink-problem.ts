import type { FastifyReply } from 'fastify';
import { isHopError, type FieldProblem, type HopError } from '../../../domain/errors.js';
import { PROBLEMS } from '../../problems.js';

/** Shlink's problem `type`s are URIs under this base (`toProblemDetailsType` in Shlink). */
const TYPE_BASE = 'https://shlink.io/api/error/';

/** An RFC 7807 problem exactly as Shlink words it: `type`, `title`, `detail`, `status` and extras. */
export class ShlinkProblem extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return {
      type: `${TYPE_BASE}${this.code}`,
      title: this.title,
      detail: this.detail,
      status: this.status,
      ...this.extra,
    };
  }
}

export function sendShlinkProblem(reply: FastifyReply, problem: ShlinkProblem): FastifyReply {
  return reply
    .code(problem.status)
    .header('content-type', 'application/problem+json')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(problem.body()));
}

/** 400 `invalid-data` naming the Shlink fields at fault (`ValidationException`). */
export function invalidData(invalidElements: readonly string[], detail?: string): ShlinkProblem {
  return new ShlinkProblem(
    'invalid-data',
    400,
    'Invalid data',
    detail ?? 'Provided data is not valid',
    { invalidElements: [...new Set(invalidElements)] },
  );
}

export function malformedBody(detail = 'Provided request body is not valid JSON.'): ShlinkProblem {
  return new ShlinkProblem('malformed-request-body', 400, 'Malformed request body', detail);
}

export function missingAuthentication(where: 'header' | 'param'): ShlinkProblem {
  return where === 'header'
    ? new ShlinkProblem(
        'missing-authentication',
        401,
        'Invalid authorization',
        'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
        { expectedHeaders: ['X-Api-Key'] },
      )
    : new ShlinkProblem(
        'missing-authentication',
        401,
        'Invalid authorization',
        'Expected authentication to be provided in "apiKey" query param',
        { param: 'apiKey' },
      );
}

export function invalidApiKey(): ShlinkProblem {
  return new ShlinkProblem(
    'invalid-api-key',
    401,
    'Invalid API key',
    'Provided API key does not exist or is invalid.',
  );
}

export function shortUrlNotFound(shortCode: string, domain: string | undefined): ShlinkProblem {
  const where = domain === undefined ? '' : ` for domain "${domain}"`;
  return new ShlinkProblem(
    'short-url-not-found',
    404,
    'Short URL not found',
    `No URL found with short code "${shortCode}"${where}`,
    domain === undefined ? { shortCode } : { shortCode, domain },
  );
}

export function tagNotFound(tag: string): ShlinkProblem {
  return new ShlinkProblem(
    'tag-not-found',
    404,
    'Tag not found',
    `Tag with name "${tag}" could not be found`,
    { tag },
  );
}

export function tagConflict(oldName: string, newName: string): ShlinkProblem {
  return new ShlinkProblem(
    'tag-conflict',
    409,
    'Tag conflict',
    `You cannot rename tag ${oldName} to ${newName}, because it already exists`,
    { oldName, newName },
  );
}

/** What an unknown path under `/rest` answers (mezzio's `ProblemDetailsNotFoundHandler`). */
export function routeNotFound(method: string, path: string): ShlinkProblem {
  return new ShlinkProblem('not-found', 404, 'Not Found', `Cannot ${method} ${path}`);
}

export function mercureNotConfigured(): ShlinkProblem {
  return new ShlinkProblem(
    'mercure-not-configured',
    501,
    'Mercure integration not configured',
    'This Shlink instance is not integrated with a mercure hub.',
  );
}

/** hop's field names as the Shlink fields they come from (`rules[0].when` → `redirectRules`). */
const SHLINK_FIELD_OF: Readonly<Record<string, string>> = {
  destination: 'longUrl',
  alias: 'customSlug',
  expires_at: 'validUntil',
  max_clicks: 'maxVisits',
  forward_query: 'forwardQuery',
  rules: 'redirectRules',
  limit: 'itemsPerPage',
  search: 'searchTerm',
  name: 'newName',
  from: 'startDate',
  to: 'endDate',
};

export function shlinkFieldOf(hopField: string): string {
  const head = /^[A-Za-z_]+/.exec(hopField)?.[0] ?? hopField;
  return SHLINK_FIELD_OF[head] ?? head;
}

/**
 * A service's refusal as Shlink would answer it. Bad input of any kind is `invalid-data`
 * naming the Shlink fields; a taken alias is `non-unique-slug`; an unknown link is
 * answered by the routes (they know the code), so a stray `not-found` here is generic.
 */
export function problemOfHopError(
  error: HopError,
  context: { customSlug?: string | undefined; domain?: string | undefined } = {},
): ShlinkProblem {
  const status = PROBLEMS[error.kind].status;
  switch (error.kind) {
    case 'unauthorized':
      return invalidApiKey();
    case 'insufficient-scope':
    case 'forbidden':
      return new ShlinkProblem(
        'forbidden-operation',
        403,
        'Forbidden operation',
        error.detail,
        scopeOf(error.fields),
      );
    case 'not-found':
      return new ShlinkProblem('not-found', 404, 'Not Found', error.detail);
    case 'alias-taken': {
      const slug = context.customSlug ?? '';
      const where = context.domain === undefined ? '' : ` for domain "${context.domain}"`;
      return new ShlinkProblem(
        'non-unique-slug',
        400,
        'Invalid custom slug',
        `Provided slug "${slug}" is already in use${where}.`,
        context.domain === undefined
          ? { customSlug: slug }
          : { customSlug: slug, domain: context.domain },
      );
    }
    case 'rate-limited':
      return new ShlinkProblem('too-many-requests', 429, 'Too many requests', error.detail);
    default:
      break;
  }
  if (status >= 500) {
    return new ShlinkProblem('service-unavailable', status, 'Service unavailable', error.detail);
  }
  const fields = (error.fields ?? []).map((field: FieldProblem) => shlinkFieldOf(field.field));
  return invalidData(fields, error.detail);
}

function scopeOf(fields: readonly FieldProblem[] | undefined): Record<string, unknown> {
  const scope = fields?.find((field) => field.field === 'scope')?.detail;
  return scope === undefined ? {} : { scope };
}

/** Any error as a Shlink problem; the unexpected one as a 500 without its message. */
export function problemOf(error: unknown): ShlinkProblem | null {
  if (error instanceof ShlinkProblem) return error;
  if (isHopError(error)) return problemOfHopError(error);
  return null;
}

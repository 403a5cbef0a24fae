import { checkDestination } from '../../domain/destination-policy.js';
import { HopError, type FieldProblem } from '../../domain/errors.js';
import { DEFAULT_DOMAIN, normaliseDomainHost } from '../../domain/link-domain.js';
import type { DomainServiceDeps } from './domain-service-deps.js';

/** The redirects of a create or a PATCH, as the API names them; null removes one. */
export interface DomainRedirects {
  readonly rootRedirect?: string | null | undefined;
  readonly notFoundRedirect?: string | null | undefined;
}

/** The checked redirects: a field absent from the input is absent here too. */
export interface CheckedRedirects {
  rootRedirect?: string | null;
  notFoundRedirect?: string | null;
}

/**
 * Checks a domain's redirects against the links' destination policy, with the domain's own
 * host counted as this service's (a redirect there would loop); reports every bad field at
 * once as `invalid-request` naming it (ADR 0117).
 */
export function checkDomainRedirects(
  deps: DomainServiceDeps,
  ownHost: string,
  input: DomainRedirects,
  earlier: readonly FieldProblem[] = [],
): CheckedRedirects {
  const policy = {
    ...deps.destinationPolicy,
    ownHosts: [...deps.destinationPolicy.ownHosts, ownHost],
  };
  const problems = [...earlier];
  const checked: CheckedRedirects = {};
  const check = (value: string | null | undefined, field: string): string | null | undefined => {
    if (value === undefined || value === null) return value;
    const verdict = checkDestination(value, policy);
    if (verdict.ok) return verdict.destination;
    problems.push({ field, detail: verdict.reason });
    return undefined;
  };
  const root = check(input.rootRedirect, 'root_redirect');
  if (root !== undefined) checked.rootRedirect = root;
  const notFound = check(input.notFoundRedirect, 'not_found_redirect');
  if (notFound !== undefined) checked.notFoundRedirect = notFound;
  if (problems.length > 0) throw invalidFields(problems);
  return checked;
}

/** One `invalid-request` naming every field in `problems`. */
export function invalidFields(problems: readonly FieldProblem[]): HopError {
  const sentences = problems.map(({ field, detail }) =>
    detail.startsWith(`${field} `) ? detail : `${field}: ${detail}`,
  );
  const detail =
    sentences.length === 1
      ? (sentences[0] ?? '')
      : `The request has ${sentences.length} problems: ${sentences.join('; ')}`;
  return new HopError('invalid-request', detail, { fields: problems });
}

/**
 * The stored host a path names (`''` for the host of HOP_PUBLIC_URL), or null when it is
 * no host name at all: such a domain cannot exist.
 */
export function storedHostOf(deps: DomainServiceDeps, given: string): string | null {
  let host: string;
  try {
    host = normaliseDomainHost(given);
  } catch {
    return null;
  }
  return host === deps.defaultHost ? DEFAULT_DOMAIN : host;
}

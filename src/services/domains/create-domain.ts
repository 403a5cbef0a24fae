import { HopError, type FieldProblem } from '../../domain/errors.js';
import { normaliseDomainHost, type LinkDomain } from '../../domain/link-domain.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import { checkDomainRedirects, type DomainRedirects } from './domain-fields.js';
import type { DomainServiceDeps } from './domain-service-deps.js';
import { domainViewOf, type DomainView } from './domain-view.js';

export interface CreateDomainInput extends DomainRedirects {
  readonly host: string;
  /** Default true: short URLs on the domain are https://. */
  readonly https?: boolean | undefined;
}

/**
 * Adds a short domain (issue 22). The default domain exists already (`domain-exists`); a
 * key limited to domains may not add one it could not then see (ADR 0117).
 */
export async function createDomain(
  deps: DomainServiceDeps,
  principal: Principal,
  input: CreateDomainInput,
): Promise<DomainView> {
  assertScope(principal, 'domains:write');
  if (principal.domains !== null) {
    throw new HopError('forbidden', 'A key limited to domains may not add domains.');
  }
  const problems: FieldProblem[] = [];
  let host = '';
  try {
    host = normaliseDomainHost(input.host, 'host');
  } catch (error) {
    if (!(error instanceof HopError)) throw error;
    problems.push(...error.fields);
  }
  const redirects = checkDomainRedirects(deps, host, input, problems);
  if (host === deps.defaultHost) throw domainExists(host);
  const now = deps.clock.now();
  const domain: LinkDomain = {
    host,
    rootRedirect: redirects.rootRedirect ?? null,
    notFoundRedirect: redirects.notFoundRedirect ?? null,
    https: input.https ?? true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.domains.insertDomain(domain))) throw domainExists(host);
  await deps.events.domainsChanged();
  return domainViewOf(deps, domain);
}

function domainExists(host: string): HopError {
  return new HopError('domain-exists', `The domain ${host} exists already.`, {
    fields: [{ field: 'host', detail: 'exists already' }],
  });
}

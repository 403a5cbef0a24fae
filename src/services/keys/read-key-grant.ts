import { HopError, type FieldProblem } from '../../domain/errors.js';
import { rfc3339ToMs } from '../../domain/expiry.js';
import { DEFAULT_DOMAIN, normaliseDomainHost } from '../../domain/link-domain.js';
import {
  canUseDomain,
  isScope,
  OWNER_PATTERN,
  OWNER_SCOPES,
  type Principal,
  type Scope,
} from '../../domain/principal.js';
import type { KeyServiceDeps } from './key-service-deps.js';

/** What a new key is asked to be, as given (the API's and the CLI's words). */
export interface KeyRequest {
  readonly owner: string;
  readonly admin?: boolean | undefined;
  readonly name?: string | undefined;
  readonly scopes?: readonly string[] | undefined;
  /** Host names; the host of HOP_PUBLIC_URL names the default domain. */
  readonly domains?: readonly string[] | undefined;
  /** RFC 3339, in the future. */
  readonly expiresAt?: string | undefined;
}

/** A key request checked and made concrete: what is stored. */
export interface KeyGrant {
  readonly owner: string;
  readonly admin: boolean;
  readonly name: string | null;
  /** Null for an admin key: it holds every scope whatever is stored. */
  readonly scopes: readonly Scope[] | null;
  /** Stored hosts (`''` the default domain); null: every domain. */
  readonly domains: readonly string[] | null;
  readonly expiresAt: number | null;
}

const NAME_MAX = 100;
/** Control characters would garble `hop keys list` and the console's table. */
const CONTROL = /\p{Cc}/u;

/**
 * Checks a key request against its issuer (ADR 0118): `issuer` null is the operator on
 * the host (the CLI, the bootstrap key), who may issue anything. A key never issues more
 * than it holds: another owner's key or an admin key is `forbidden`, a scope it lacks is
 * `insufficient-scope`, a domain it may not use is unknown (422) as at a link's create.
 * Left out, scopes are the owner default within the issuer's, and domains the issuer's.
 */
export async function readKeyGrant(
  deps: Pick<KeyServiceDeps, 'clock' | 'defaultHost' | 'domains'>,
  issuer: Principal | null,
  request: KeyRequest,
): Promise<KeyGrant> {
  const admin = request.admin ?? false;
  if (issuer !== null && !issuer.admin) {
    if (admin) throw new HopError('forbidden', 'Only an admin key may issue admin keys.');
    if (request.owner !== issuer.owner) {
      throw new HopError(
        'forbidden',
        "A key that is not an admin's issues keys for its own owner only.",
      );
    }
  }
  const fields: FieldProblem[] = [];
  const problem = (field: string, detail: string) => {
    fields.push({ field, detail });
  };
  if (!OWNER_PATTERN.test(request.owner)) {
    problem('owner', 'owner has 1 to 128 letters, digits or the characters "_.@:-".');
  }
  const name = readName(request.name, problem);
  const scopes = readScopes(request.scopes, admin, problem);
  const domains = await readDomains(deps, issuer, request.domains, problem);
  const expiresAt = readExpiry(request.expiresAt, deps.clock.now(), problem);
  if (fields.length > 0) {
    const detail =
      fields.length === 1
        ? (fields[0] as FieldProblem).detail
        : `The key has ${fields.length} problems: ${fields.map((f) => `${f.field}: ${f.detail}`).join('; ')}.`;
    throw new HopError('invalid-request', detail, { fields });
  }
  return {
    owner: request.owner,
    admin,
    name,
    scopes: admin ? null : scopesWithin(issuer, scopes),
    domains: domains === undefined ? listOf(issuer?.domains ?? null) : domains,
    expiresAt,
  };
}

type Problem = (field: string, detail: string) => void;

function readName(value: string | undefined, problem: Problem): string | null {
  if (value === undefined) return null;
  const name = value.trim();
  if (name.length === 0 || name.length > NAME_MAX || CONTROL.test(name)) {
    problem('name', `name has 1 to ${NAME_MAX} characters, none of them control characters.`);
  }
  return name;
}

function readScopes(
  value: readonly string[] | undefined,
  admin: boolean,
  problem: Problem,
): readonly Scope[] | undefined {
  if (value === undefined) return undefined;
  if (admin) {
    problem('scopes', 'An admin key holds every scope: leave scopes out.');
    return undefined;
  }
  if (value.length === 0) problem('scopes', 'Name at least one scope.');
  const scopes = new Set<Scope>();
  value.forEach((scope, index) => {
    if (isScope(scope)) scopes.add(scope);
    else problem(`scopes[${index}]`, `"${scope}" is not a scope.`);
  });
  return [...scopes];
}

/**
 * The scopes to store: the ones asked for, each of which the issuer must hold; or, left
 * out, the owner default less what the issuer lacks.
 */
function scopesWithin(issuer: Principal | null, asked: readonly Scope[] | undefined): Scope[] {
  if (asked === undefined) {
    const scopes = OWNER_SCOPES.filter((scope) => issuer === null || issuer.scopes.has(scope));
    if (scopes.length === 0) {
      const detail = 'This key holds none of the default scopes: name the scopes.';
      throw new HopError('invalid-request', detail, { fields: [{ field: 'scopes', detail }] });
    }
    return scopes;
  }
  const lacking = asked.find((scope) => issuer !== null && !issuer.scopes.has(scope));
  if (lacking !== undefined) {
    throw new HopError(
      'insufficient-scope',
      `This key lacks the scope "${lacking}", so it cannot give it to another key.`,
      { fields: [{ field: 'scope', detail: lacking }] },
    );
  }
  return [...asked];
}

async function readDomains(
  deps: Pick<KeyServiceDeps, 'defaultHost' | 'domains'>,
  issuer: Principal | null,
  value: readonly string[] | undefined,
  problem: Problem,
): Promise<readonly string[] | undefined> {
  if (value === undefined) return undefined;
  if (value.length === 0) problem('domains', 'Name at least one domain, or leave domains out.');
  const domains = new Set<string>();
  for (const [index, given] of value.entries()) {
    const field = `domains[${index}]`;
    let host: string;
    try {
      host = normaliseDomainHost(given, field);
    } catch (error) {
      if (!(error instanceof HopError)) throw error;
      problem(field, error.detail);
      continue;
    }
    const stored = host === deps.defaultHost ? DEFAULT_DOMAIN : host;
    // A domain the issuer may not use reads exactly like one that does not exist.
    const usable = issuer === null || canUseDomain(issuer, stored);
    if (!usable || (stored !== DEFAULT_DOMAIN && (await deps.domains.findDomain(host)) === null)) {
      problem(field, `There is no domain "${host}".`);
      continue;
    }
    domains.add(stored);
  }
  return [...domains];
}

function readExpiry(value: string | undefined, now: number, problem: Problem): number | null {
  if (value === undefined) return null;
  const ms = rfc3339ToMs(value);
  if (ms === null) {
    problem('expires_at', 'expires_at must be an RFC 3339 timestamp such as 2030-01-31T12:00:00Z.');
    return null;
  }
  if (ms <= now) problem('expires_at', 'expires_at must lie in the future.');
  return ms;
}

function listOf(set: ReadonlySet<string> | null): readonly string[] | null {
  return set === null ? null : [...set].sort();
}

import { HopError } from './errors.js';

/** What a key may do (issue 22). Admin keys have every scope. */
export const SCOPES = [
  'links:read',
  'links:write',
  'analytics:read',
  'domains:write',
  'keys:write',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Keys made before scopes existed, and owner keys made without any: links, analytics and
 * their own webhooks (issue 23: "webhooks:write where scopes exist, else admin/owner").
 */
export const OWNER_SCOPES: readonly Scope[] = [
  'links:read',
  'links:write',
  'analytics:read',
  'webhooks:write',
];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Who is calling: derived from the API key, never from the request body (SPEC §3). */
export interface Principal {
  readonly keyId: string;
  readonly owner: string;
  readonly admin: boolean;
  /** What the key may do; an admin's holds every scope. */
  readonly scopes: ReadonlySet<Scope>;
  /**
   * The only domains (stored hosts; `''` is the default domain) whose links the key may
   * create, see or change; null: every domain.
   */
  readonly domains: ReadonlySet<string> | null;
}

/** An owner name: what keys are issued to and links belong to. */
export const OWNER_PATTERN = /^[A-Za-z0-9_.@:-]{1,128}$/;

const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);
const DEFAULT_OWNER_SCOPES: ReadonlySet<Scope> = new Set(OWNER_SCOPES);

/** The principal of a key as stored: admins hold every scope whatever the record says. */
export function principalFor(key: {
  readonly id: string;
  readonly owner: string;
  readonly admin: boolean;
  readonly scopes?: readonly Scope[] | null | undefined;
  readonly domains?: readonly string[] | null | undefined;
}): Principal {
  const scopes = key.admin
    ? ALL_SCOPES
    : key.scopes === undefined || key.scopes === null
      ? DEFAULT_OWNER_SCOPES
      : new Set(key.scopes);
  const domains = key.domains === undefined || key.domains === null ? null : new Set(key.domains);
  return { keyId: key.id, owner: key.owner, admin: key.admin, scopes, domains };
}

/** Throws `insufficient-scope` naming `scope` unless the principal holds it (issue 22). */
export function assertScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.has(scope)) {
    throw new HopError('insufficient-scope', `This key lacks the scope "${scope}".`, {
      fields: [{ field: 'scope', detail: scope }],
    });
  }
}

/** True when the principal's domains include `domain` (a stored host; `''` the default). */
export function canUseDomain(principal: Principal, domain: string): boolean {
  return principal.domains === null || principal.domains.has(domain);
}

export function canSeeLinkOf(principal: Principal, owner: string): boolean {
  return principal.admin || principal.owner === owner;
}

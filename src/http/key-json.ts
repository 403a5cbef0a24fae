import { principalFor, SCOPES } from '../domain/principal.js';
import { DEFAULT_DOMAIN } from '../domain/link-domain.js';
import type { ApiKeyRecord } from '../services/keys/manage-keys.js';

/** A key on the wire (issue 22 API shapes), never its secret. */
export function toKeyJson(record: ApiKeyRecord, defaultHost: string) {
  const held = principalFor(record).scopes;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    owner: record.owner,
    admin: record.admin,
    name: record.name,
    prefix: record.prefix,
    // What the key may do, as it authenticates: an admin's every scope, an older key's
    // the owner default.
    scopes: SCOPES.filter((scope) => held.has(scope)),
    domains:
      record.domains === null
        ? null
        : record.domains.map((host) => (host === DEFAULT_DOMAIN ? defaultHost : host)),
    expires_at: iso(record.expiresAt),
    last_used_at: iso(record.lastUsedAt),
    created_at: iso(record.createdAt),
    revoked_at: iso(record.revokedAt),
  };
}

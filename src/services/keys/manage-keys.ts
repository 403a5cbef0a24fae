import { HopError } from '../../domain/errors.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import type { ApiKeyRecord } from '../../ports/api-key-store.js';
import { hashApiKey, keyPrefix } from './hash-api-key.js';
import type { KeyServiceDeps } from './key-service-deps.js';
import { readKeyGrant, type KeyRequest } from './read-key-grant.js';

export type { ApiKeyRecord, KeyRequest };

export interface IssuedKey {
  readonly record: ApiKeyRecord;
  /** The secret itself: shown once, at issue, and never again. */
  readonly key: string;
}

/**
 * Issues a new key as `request` asks, within what `issuer` may give (read-key-grant.ts);
 * `issuer` null is the operator on the host. Managing keys needs the scope `keys:write`.
 */
export async function issueKey(
  deps: KeyServiceDeps,
  issuer: Principal | null,
  request: KeyRequest,
): Promise<IssuedKey> {
  if (issuer !== null) assertScope(issuer, 'keys:write');
  const grant = await readKeyGrant(deps, issuer, request);
  const key = deps.newSecret();
  const record: ApiKeyRecord = {
    id: deps.newId(),
    ...grant,
    keyHash: hashApiKey(key),
    prefix: keyPrefix(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
    lastUsedAt: null,
  };
  await deps.keys.insertKey(record);
  return { record, key };
}

/** Every key `viewer` may manage (null: the operator, every key), oldest first. */
export async function listKeys(
  deps: KeyServiceDeps,
  viewer: Principal | null,
): Promise<readonly ApiKeyRecord[]> {
  if (viewer !== null) assertScope(viewer, 'keys:write');
  const keys = await deps.keys.listKeys();
  return viewer === null ? keys : keys.filter((key) => mayManage(viewer, key));
}

/** Revokes a key `viewer` may manage; any other is `not-found`, as an unknown id is. */
export async function revokeKey(
  deps: KeyServiceDeps,
  viewer: Principal | null,
  id: string,
): Promise<void> {
  if (viewer !== null) {
    assertScope(viewer, 'keys:write');
    const key = await deps.keys.findActiveKeyById(id);
    if (key === null || !mayManage(viewer, key)) throw noSuchKey();
  }
  if (!(await deps.keys.revokeKey(id, deps.clock.now()))) throw noSuchKey();
}

/**
 * An admin manages every key; any other key with `keys:write`, only its owner's keys
 * that are not admin keys (ADR 0118).
 */
function mayManage(viewer: Principal, key: ApiKeyRecord): boolean {
  return viewer.admin || (key.owner === viewer.owner && !key.admin);
}

function noSuchKey(): HopError {
  return new HopError('not-found', 'No unrevoked key with this id.');
}

export type BootstrapResult =
  | { readonly kind: 'configured-key-created' }
  | { readonly kind: 'configured-key-present' }
  | { readonly kind: 'generated'; readonly key: string }
  | { readonly kind: 'keys-exist' };

/** The owner of keys that hop makes for itself at first start. */
export const BOOTSTRAP_OWNER = 'admin';

/**
 * Makes sure an operator can get in (SPEC §8): the configured bootstrap key is created if
 * absent; without one, the very first start generates an admin key for printing once.
 */
export async function ensureBootstrapKey(
  deps: KeyServiceDeps,
  configuredKey: string | undefined,
): Promise<BootstrapResult> {
  if (configuredKey !== undefined) {
    const inserted = await deps.keys.insertKey({
      id: deps.newId(),
      owner: BOOTSTRAP_OWNER,
      admin: true,
      keyHash: hashApiKey(configuredKey),
      prefix: keyPrefix(configuredKey),
      createdAt: deps.clock.now(),
      revokedAt: null,
      name: null,
      scopes: null,
      domains: null,
      expiresAt: null,
      lastUsedAt: null,
    });
    return { kind: inserted ? 'configured-key-created' : 'configured-key-present' };
  }
  if ((await deps.keys.countKeys()) > 0) return { kind: 'keys-exist' };
  const issued = await issueKey(deps, null, { owner: BOOTSTRAP_OWNER, admin: true });
  return { kind: 'generated', key: issued.key };
}

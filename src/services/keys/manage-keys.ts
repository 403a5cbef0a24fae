import { HopError } from '../../domain/errors.js';
import { OWNER_PATTERN, type Principal } from '../../domain/principal.js';
import type { ApiKeyRecord } from '../../ports/api-key-store.js';

export type { ApiKeyRecord };
import { hashApiKey, keyPrefix } from './hash-api-key.js';
import type { KeyServiceDeps } from './key-service-deps.js';

export interface IssuedKey {
  readonly record: ApiKeyRecord;
  /** The secret itself: shown once, at issue, and never again. */
  readonly key: string;
}

export function assertAdmin(principal: Principal): void {
  if (!principal.admin) throw new HopError('forbidden', 'Only an admin key may manage keys.');
}

/** Issues a new key for `owner`. Checks the owner name; authorisation is the caller's. */
export async function issueKey(
  deps: KeyServiceDeps,
  owner: string,
  admin: boolean,
): Promise<IssuedKey> {
  if (!OWNER_PATTERN.test(owner)) {
    const detail = 'owner has 1 to 128 letters, digits or the characters "_.@:-".';
    throw new HopError('invalid-request', detail, { fields: [{ field: 'owner', detail }] });
  }
  const key = deps.newSecret();
  const record: ApiKeyRecord = {
    id: deps.newId(),
    owner,
    admin,
    keyHash: hashApiKey(key),
    prefix: keyPrefix(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  await deps.keys.insertKey(record);
  return { record, key };
}

export function listKeys(deps: KeyServiceDeps): Promise<readonly ApiKeyRecord[]> {
  return deps.keys.listKeys();
}

export async function revokeKey(deps: KeyServiceDeps, id: string): Promise<void> {
  if (!(await deps.keys.revokeKey(id, deps.clock.now()))) {
    throw new HopError('not-found', 'No unrevoked key with this id.');
  }
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
    });
    return { kind: inserted ? 'configured-key-created' : 'configured-key-present' };
  }
  if ((await deps.keys.countKeys()) > 0) return { kind: 'keys-exist' };
  const issued = await issueKey(deps, BOOTSTRAP_OWNER, true);
  return { kind: 'generated', key: issued.key };
}

import type { Scope } from '../domain/principal.js';

export interface ApiKeyRecord {
  readonly id: string;
  readonly owner: string;
  readonly admin: boolean;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  readonly keyHash: string;
  /** The first characters of the key, so people can tell keys apart in a list. */
  readonly prefix: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
  /** What people call the key ("ci deploys"); null: unnamed. */
  readonly name: string | null;
  /** What the key may do; null: a key made before scopes (the owner default, ADR 0118). */
  readonly scopes: readonly Scope[] | null;
  /** The only domains (stored hosts; `''` the default) the key may use; null: every one. */
  readonly domains: readonly string[] | null;
  /** Epoch ms from which the key no longer authenticates; null: never. */
  readonly expiresAt: number | null;
  /** When the key last authenticated, to within a minute; null: never since issue 22. */
  readonly lastUsedAt: number | null;
}

export interface ApiKeyStore {
  /** Stores a new key record; false if a key with the same hash exists already. */
  insertKey(record: ApiKeyRecord): Promise<boolean>;
  /** The unrevoked key with this hash, or null. */
  findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The unrevoked key with this id, or null (a console session names its key by id). */
  findActiveKeyById(id: string): Promise<ApiKeyRecord | null>;
  /** Every key, revoked ones included, oldest first. */
  listKeys(): Promise<readonly ApiKeyRecord[]>;
  /**
   * Records that the key was used at `usedAt` if its last recorded use is at or before
   * `ifLastUsedBy` (or there is none): so instances sharing the store write each key at most
   * once a minute between them. True when it wrote.
   */
  recordKeyUse(id: string, usedAt: number, ifLastUsedBy: number): Promise<boolean>;
  /** Marks the key revoked; false when there is no such unrevoked key. */
  revokeKey(id: string, nowMs: number): Promise<boolean>;
  /**
   * Records a console session as signed out (by its token's SHA-256, hex) until it would have
   * expired, and forgets ended sessions whose expiry is at or before `forgetUntilMs`.
   */
  endConsoleSession(tokenHash: string, expiresAt: number, forgetUntilMs: number): Promise<void>;
  /** True when the console session with this token hash was signed out. */
  consoleSessionEnded(tokenHash: string): Promise<boolean>;
  /** How many keys exist, revoked ones included. */
  countKeys(): Promise<number>;
}

import type Database from 'better-sqlite3';
import type { Scope } from '../../domain/principal.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * A key's row as `COLUMNS` lists them, read as a positional array (`.raw()`): better-sqlite3
 * builds an object row property by property, a quarter of the key's lookup at every API
 * call in `perf` (BENCHMARKS.md, 2026-12-07). `scopes` and `domains`: JSON arrays of
 * strings, or NULL (migration 0014).
 */
type ApiKeyCells = [
  id: string,
  owner: string,
  admin: number,
  keyHash: string,
  prefix: string,
  createdAt: number,
  revokedAt: number | null,
  name: string | null,
  scopes: string | null,
  domains: string | null,
  expiresAt: number | null,
  lastUsedAt: number | null,
];

const COLUMNS =
  'id, owner, admin, key_hash, prefix, created_at, revoked_at, name, scopes, domains, expires_at, last_used_at';

export class SqliteApiKeyStore implements ApiKeyStore {
  readonly #insert: Database.Statement;
  readonly #byHash: Database.Statement<[string], ApiKeyCells>;
  readonly #byId: Database.Statement<[string], ApiKeyCells>;
  readonly #all: Database.Statement<[], ApiKeyCells>;
  readonly #revoke: Database.Statement<[number, string]>;
  readonly #recordUse: Database.Statement<[number, string, number]>;
  readonly #count: Database.Statement<[], { n: number }>;
  readonly #endSession: (tokenHash: string, expiresAt: number, forgetUntilMs: number) => void;
  readonly #sessionEnded: Database.Statement<[string], { found: number }>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO api_keys (${COLUMNS}) VALUES (@id, @owner, @admin, @key_hash, @prefix, @created_at, @revoked_at,
         @name, @scopes, @domains, @expires_at, @last_used_at)
       ON CONFLICT DO NOTHING`,
    );
    this.#byHash = db
      .prepare<[string], ApiKeyCells>(
        `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
      )
      .raw();
    this.#byId = db
      .prepare<[string], ApiKeyCells>(
        `SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND revoked_at IS NULL`,
      )
      .raw();
    this.#all = db.prepare<[], ApiKeyCells>(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).raw();
    this.#revoke = db.prepare(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    );
    this.#recordUse = db.prepare(
      `UPDATE api_keys SET last_used_at = ?
       WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
    );
    this.#count = db.prepare('SELECT count(*) AS n FROM api_keys');
    const forgetExpired = db.prepare<[number]>(
      'DELETE FROM ended_console_sessions WHERE expires_at <= ?',
    );
    const insertEnded = db.prepare<[string, number]>(
      `INSERT INTO ended_console_sessions (token_hash, expires_at) VALUES (?, ?)
       ON CONFLICT DO NOTHING`,
    );
    this.#endSession = db.transaction(
      (tokenHash: string, expiresAt: number, forgetUntilMs: number) => {
        forgetExpired.run(forgetUntilMs);
        insertEnded.run(tokenHash, expiresAt);
      },
    );
    this.#sessionEnded = db.prepare(
      'SELECT 1 AS found FROM ended_console_sessions WHERE token_hash = ?',
    );
  }

  async insertKey(record: ApiKeyRecord): Promise<boolean> {
    return guardSqlite('store the key', () => {
      const result = this.#insert.run({
        id: record.id,
        owner: record.owner,
        admin: record.admin ? 1 : 0,
        key_hash: record.keyHash,
        prefix: record.prefix,
        created_at: record.createdAt,
        revoked_at: record.revokedAt,
        name: record.name,
        scopes: record.scopes === null ? null : JSON.stringify(record.scopes),
        domains: record.domains === null ? null : JSON.stringify(record.domains),
        expires_at: record.expiresAt,
        last_used_at: record.lastUsedAt,
      });
      return result.changes === 1;
    });
  }

  async findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return guardSqlite('read the key', () => {
      const row = this.#byHash.get(keyHash);
      return row === undefined ? null : fromRow(row);
    });
  }

  async findActiveKeyById(id: string): Promise<ApiKeyRecord | null> {
    return guardSqlite('read the key', () => {
      const row = this.#byId.get(id);
      return row === undefined ? null : fromRow(row);
    });
  }

  async listKeys(): Promise<readonly ApiKeyRecord[]> {
    return guardSqlite('list keys', () => this.#all.all().map(fromRow));
  }

  async revokeKey(id: string, nowMs: number): Promise<boolean> {
    return guardSqlite('revoke the key', () => this.#revoke.run(nowMs, id).changes === 1);
  }

  async recordKeyUse(id: string, usedAt: number, ifLastUsedBy: number): Promise<boolean> {
    return guardSqlite('record the key use', () => {
      return this.#recordUse.run(usedAt, id, ifLastUsedBy).changes === 1;
    });
  }

  async endConsoleSession(
    tokenHash: string,
    expiresAt: number,
    forgetUntilMs: number,
  ): Promise<void> {
    guardSqlite('end the console session', () => {
      this.#endSession(tokenHash, expiresAt, forgetUntilMs);
    });
  }

  async consoleSessionEnded(tokenHash: string): Promise<boolean> {
    return guardSqlite('read the console session', () => {
      return this.#sessionEnded.get(tokenHash) !== undefined;
    });
  }

  async countKeys(): Promise<number> {
    return guardSqlite('count keys', () => this.#count.get()?.n ?? 0);
  }
}

function fromRow([
  id,
  owner,
  admin,
  keyHash,
  prefix,
  createdAt,
  revokedAt,
  name,
  scopes,
  domains,
  expiresAt,
  lastUsedAt,
]: ApiKeyCells): ApiKeyRecord {
  return {
    id,
    owner,
    admin: admin === 1,
    keyHash,
    prefix,
    createdAt,
    revokedAt,
    name,
    scopes: scopes === null ? null : (JSON.parse(scopes) as Scope[]),
    domains: domains === null ? null : (JSON.parse(domains) as string[]),
    expiresAt,
    lastUsedAt,
  };
}

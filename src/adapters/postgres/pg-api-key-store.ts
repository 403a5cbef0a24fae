import type pg from 'pg';
import type { Scope } from '../../domain/principal.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import { guardPg } from './pg-errors.js';

interface ApiKeyRow {
  id: string;
  owner: string;
  admin: boolean;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
  name: string | null;
  /** jsonb arrays of strings, parsed by pg, or NULL (migration 0011). */
  scopes: Scope[] | null;
  domains: string[] | null;
  expires_at: number | null;
  last_used_at: number | null;
}

const COLUMNS =
  'id, owner, admin, key_hash, prefix, created_at, revoked_at, name, scopes, domains, expires_at, last_used_at';

export class PgApiKeyStore implements ApiKeyStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async insertKey(record: ApiKeyRecord): Promise<boolean> {
    return guardPg('store the key', async () => {
      const result = await this.#pool.query(
        `INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT DO NOTHING`,
        [
          record.id,
          record.owner,
          record.admin,
          record.keyHash,
          record.prefix,
          record.createdAt,
          record.revokedAt,
          record.name,
          record.scopes === null ? null : JSON.stringify(record.scopes),
          record.domains === null ? null : JSON.stringify(record.domains),
          record.expiresAt,
          record.lastUsedAt,
        ],
      );
      return result.rowCount === 1;
    });
  }

  findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.#findActive('key_hash', keyHash);
  }

  findActiveKeyById(id: string): Promise<ApiKeyRecord | null> {
    return this.#findActive('id', id);
  }

  /** The unrevoked key whose `column` is `value`, or null. */
  #findActive(column: 'key_hash' | 'id', value: string): Promise<ApiKeyRecord | null> {
    return guardPg('read the key', async () => {
      const { rows } = await this.#pool.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE ${column} = $1 AND revoked_at IS NULL`,
        [value],
      );
      return rows[0] === undefined ? null : fromRow(rows[0]);
    });
  }

  async listKeys(): Promise<readonly ApiKeyRecord[]> {
    return guardPg('list keys', async () => {
      const { rows } = await this.#pool.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys ORDER BY id`,
      );
      return rows.map(fromRow);
    });
  }

  async revokeKey(id: string, nowMs: number): Promise<boolean> {
    return guardPg('revoke the key', async () => {
      const result = await this.#pool.query(
        'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
        [nowMs, id],
      );
      return result.rowCount === 1;
    });
  }

  async recordKeyUse(id: string, usedAt: number, ifLastUsedBy: number): Promise<boolean> {
    return guardPg('record the key use', async () => {
      const result = await this.#pool.query(
        `UPDATE api_keys SET last_used_at = $1
         WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)`,
        [usedAt, id, ifLastUsedBy],
      );
      return result.rowCount === 1;
    });
  }

  async endConsoleSession(
    tokenHash: string,
    expiresAt: number,
    forgetUntilMs: number,
  ): Promise<void> {
    await guardPg('end the console session', async () => {
      await this.#pool.query(
        `WITH forgotten AS (DELETE FROM ended_console_sessions WHERE expires_at <= $3)
         INSERT INTO ended_console_sessions (token_hash, expires_at) VALUES ($1, $2)
         ON CONFLICT DO NOTHING`,
        [tokenHash, expiresAt, forgetUntilMs],
      );
    });
  }

  async consoleSessionEnded(tokenHash: string): Promise<boolean> {
    return guardPg('read the console session', async () => {
      const { rowCount } = await this.#pool.query(
        'SELECT 1 FROM ended_console_sessions WHERE token_hash = $1',
        [tokenHash],
      );
      return rowCount === 1;
    });
  }

  async countKeys(): Promise<number> {
    return guardPg('count keys', async () => {
      const { rows } = await this.#pool.query<{ n: number }>('SELECT count(*) AS n FROM api_keys');
      return rows[0]?.n ?? 0;
    });
  }
}

function fromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    owner: row.owner,
    admin: row.admin,
    keyHash: row.key_hash,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    name: row.name,
    scopes: row.scopes,
    domains: row.domains,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

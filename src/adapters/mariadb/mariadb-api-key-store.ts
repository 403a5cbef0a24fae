import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Scope } from '../../domain/principal.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import { guardMariaDb, isDuplicateEntry } from './mariadb-errors.js';
import { inTransaction } from './mariadb-transaction.js';

interface ApiKeyRow extends RowDataPacket {
  id: string;
  owner: string;
  admin: boolean;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
  name: string | null;
  /** JSON arrays of strings as their text (the pool's jsonStrings), or NULL. */
  scopes: string | null;
  domains: string | null;
  expires_at: number | null;
  last_used_at: number | null;
}

const COLUMNS =
  'id, owner, admin, key_hash, prefix, created_at, revoked_at, name, scopes, domains, expires_at, last_used_at';

export class MariaDbApiKeyStore implements ApiKeyStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** A duplicate id or key hash is refused by its unique key, as PostgreSQL's DO NOTHING. */
  async insertKey(record: ApiKeyRecord): Promise<boolean> {
    return guardMariaDb('store the key', async () => {
      try {
        await this.#pool.query(
          `INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        return true;
      } catch (error) {
        if (isDuplicateEntry(error)) return false;
        throw error;
      }
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
    return guardMariaDb('read the key', async () => {
      const [rows] = await this.#pool.query<ApiKeyRow[]>(
        `SELECT ${COLUMNS} FROM api_keys WHERE ${column} = ? AND revoked_at IS NULL`,
        [value],
      );
      const row = rows[0];
      // utf8mb4_bin pads with spaces: 'k ' would find 'k'. Only the exact value is the key.
      return row === undefined || row[column] !== value ? null : fromRow(row);
    });
  }

  async listKeys(): Promise<readonly ApiKeyRecord[]> {
    return guardMariaDb('list keys', async () => {
      const [rows] = await this.#pool.query<ApiKeyRow[]>(
        `SELECT ${COLUMNS} FROM api_keys ORDER BY id`,
      );
      return rows.map(fromRow);
    });
  }

  async revokeKey(id: string, nowMs: number): Promise<boolean> {
    return guardMariaDb('revoke the key', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(
        'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
        [nowMs, id],
      );
      return result.affectedRows === 1;
    });
  }

  /** affectedRows counts the rows matched (mysql2 asks for found rows), as PostgreSQL does. */
  async recordKeyUse(id: string, usedAt: number, ifLastUsedBy: number): Promise<boolean> {
    return guardMariaDb('record the key use', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(
        `UPDATE api_keys SET last_used_at = ?
         WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
        [usedAt, id, ifLastUsedBy],
      );
      return result.affectedRows === 1;
    });
  }

  /**
   * Two statements in one transaction, as PostgreSQL's one: on Galera, two instances
   * forgetting the same sessions at once are decided at COMMIT, and the loser runs again.
   */
  async endConsoleSession(
    tokenHash: string,
    expiresAt: number,
    forgetUntilMs: number,
  ): Promise<void> {
    await guardMariaDb('end the console session', () =>
      inTransaction(this.#pool, async (connection) => {
        await connection.query('DELETE FROM ended_console_sessions WHERE expires_at <= ?', [
          forgetUntilMs,
        ]);
        // Ending one session twice changes nothing.
        await connection.query(
          `INSERT INTO ended_console_sessions (token_hash, expires_at) VALUES (?, ?)
           ON DUPLICATE KEY UPDATE token_hash = token_hash`,
          [tokenHash, expiresAt],
        );
      }),
    );
  }

  async consoleSessionEnded(tokenHash: string): Promise<boolean> {
    return guardMariaDb('read the console session', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & { token_hash: string })[]>(
        'SELECT token_hash FROM ended_console_sessions WHERE token_hash = ?',
        [tokenHash],
      );
      return rows.some((row) => row.token_hash === tokenHash);
    });
  }

  async countKeys(): Promise<number> {
    return guardMariaDb('count keys', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & { n: number })[]>(
        'SELECT count(*) AS n FROM api_keys',
      );
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
    scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as Scope[]),
    domains: row.domains === null ? null : (JSON.parse(row.domains) as string[]),
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { LinkDomain } from '../../domain/link-domain.js';
import type { DeleteDomainResult, DomainStore } from '../../ports/domain-store.js';
import { DOMAIN_COLUMNS, domainFromRow, type DomainRow } from '../sql/domain-rows.js';
import { guardMariaDb, isDuplicateEntry } from './mariadb-errors.js';

/**
 * The domain goes only while no link is on it, decided by the one statement: a link
 * inserted meanwhile either commits first (and is seen) or follows the delete, as on
 * PostgreSQL.
 */
const DELETE_UNUSED = `DELETE FROM domains
  WHERE host = ? AND NOT EXISTS (SELECT 1 FROM links WHERE domain = ?)`;
/** Why nothing was deleted: a link on the host wins over a missing domain, as on PostgreSQL. */
const WHY_KEPT = `SELECT EXISTS (SELECT 1 FROM links WHERE domain = ?) AS in_use`;

export class MariaDbDomainStore implements DomainStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async insertDomain(domain: LinkDomain): Promise<boolean> {
    return guardMariaDb('store the domain', async () => {
      try {
        await this.#pool.query(
          `INSERT INTO domains (${DOMAIN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
          [
            domain.host,
            domain.rootRedirect,
            domain.notFoundRedirect,
            domain.https,
            domain.createdAt,
            domain.updatedAt,
          ],
        );
        return true;
      } catch (error) {
        if (isDuplicateEntry(error)) return false;
        throw error;
      }
    });
  }

  async listDomains(): Promise<readonly LinkDomain[]> {
    return guardMariaDb('list domains', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & DomainRow)[]>(
        `SELECT ${DOMAIN_COLUMNS} FROM domains ORDER BY host`,
      );
      return rows.map(domainFromRow);
    });
  }

  async findDomain(host: string): Promise<LinkDomain | null> {
    return guardMariaDb('read the domain', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & DomainRow)[]>(
        `SELECT ${DOMAIN_COLUMNS} FROM domains WHERE host = ?`,
        [host],
      );
      const row = rows[0];
      // utf8mb4_bin pads with spaces: 'a.test ' would find 'a.test'. Only the exact host.
      return row === undefined || row.host !== host ? null : domainFromRow(row);
    });
  }

  /** affectedRows counts the row matched (mysql2 asks for found rows), changed or not. */
  async updateDomain(domain: LinkDomain): Promise<boolean> {
    return guardMariaDb('update the domain', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(
        `UPDATE domains SET root_redirect = ?, not_found_redirect = ?, https = ?, updated_at = ?
         WHERE host = ?`,
        [domain.rootRedirect, domain.notFoundRedirect, domain.https, domain.updatedAt, domain.host],
      );
      return result.affectedRows === 1;
    });
  }

  async deleteDomain(host: string): Promise<DeleteDomainResult> {
    return guardMariaDb('delete the domain', async () => {
      const [deleted] = await this.#pool.query<ResultSetHeader>(DELETE_UNUSED, [host, host]);
      if (deleted.affectedRows === 1) return 'deleted';
      const [rows] = await this.#pool.query<(RowDataPacket & { in_use: number })[]>(WHY_KEPT, [
        host,
      ]);
      return rows[0]?.in_use === 1 ? 'in-use' : 'not-found';
    });
  }
}

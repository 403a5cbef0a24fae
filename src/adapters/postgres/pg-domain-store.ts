import type pg from 'pg';
import type { LinkDomain } from '../../domain/link-domain.js';
import type { DeleteDomainResult, DomainStore } from '../../ports/domain-store.js';
import { DOMAIN_COLUMNS, domainFromRow, type DomainRow } from '../sql/domain-rows.js';
import { guardPg } from './pg-errors.js';
import { NUL } from './pg-link-rows.js';

export class PgDomainStore implements DomainStore {
  readonly #primary: pg.Pool;

  constructor(primary: pg.Pool) {
    this.#primary = primary;
  }

  async insertDomain(domain: LinkDomain): Promise<boolean> {
    return guardPg('store the domain', async () => {
      const result = await this.#primary.query(
        `INSERT INTO domains (${DOMAIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING`,
        paramsOf(domain),
      );
      return result.rowCount === 1;
    });
  }

  async listDomains(): Promise<readonly LinkDomain[]> {
    return guardPg('list domains', async () => {
      const { rows } = await this.#primary.query<DomainRow>(
        `SELECT ${DOMAIN_COLUMNS} FROM domains ORDER BY host`,
      );
      return rows.map(domainFromRow);
    });
  }

  async findDomain(host: string): Promise<LinkDomain | null> {
    if (host.includes(NUL)) return null;
    return guardPg('read the domain', async () => {
      const { rows } = await this.#primary.query<DomainRow>(
        `SELECT ${DOMAIN_COLUMNS} FROM domains WHERE host = $1`,
        [host],
      );
      return rows[0] === undefined ? null : domainFromRow(rows[0]);
    });
  }

  async updateDomain(domain: LinkDomain): Promise<boolean> {
    return guardPg('update the domain', async () => {
      const result = await this.#primary.query(
        `UPDATE domains SET root_redirect = $2, not_found_redirect = $3, https = $4,
           updated_at = $5
         WHERE host = $1`,
        // Every parameter is used: PostgreSQL cannot type one the statement never names.
        [domain.host, domain.rootRedirect, domain.notFoundRedirect, domain.https, domain.updatedAt],
      );
      return result.rowCount === 1;
    });
  }

  /**
   * One statement decides: the domain row goes only while no link is on it, and a link
   * inserted meanwhile either commits first (and is seen) or follows the delete.
   */
  async deleteDomain(host: string): Promise<DeleteDomainResult> {
    if (host.includes(NUL)) return 'not-found';
    return guardPg('delete the domain', async () => {
      const { rows } = await this.#primary.query<{ deleted: boolean; in_use: boolean }>(
        `WITH in_use AS (SELECT EXISTS (SELECT 1 FROM links WHERE domain = $1) AS in_use),
              gone AS (DELETE FROM domains WHERE host = $1 AND NOT (SELECT in_use FROM in_use)
                       RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM gone) AS deleted, (SELECT in_use FROM in_use) AS in_use`,
        [host],
      );
      const row = rows[0];
      if (row?.in_use === true) return 'in-use';
      return row?.deleted === true ? 'deleted' : 'not-found';
    });
  }
}

function paramsOf(domain: LinkDomain): unknown[] {
  return [
    domain.host,
    domain.rootRedirect,
    domain.notFoundRedirect,
    domain.https,
    domain.createdAt,
    domain.updatedAt,
  ];
}

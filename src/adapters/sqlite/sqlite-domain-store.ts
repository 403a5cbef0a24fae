import type Database from 'better-sqlite3';
import type { LinkDomain } from '../../domain/link-domain.js';
import type { DeleteDomainResult, DomainStore } from '../../ports/domain-store.js';
import { DOMAIN_COLUMNS, domainFromRow, type DomainRow } from '../sql/domain-rows.js';
import { guardSqlite } from './sqlite-errors.js';

export class SqliteDomainStore implements DomainStore {
  readonly #insert: Database.Statement;
  readonly #all: Database.Statement<[], DomainRow>;
  readonly #byHost: Database.Statement<[string], DomainRow>;
  readonly #update: Database.Statement;
  readonly #delete: Database.Transaction<(host: string) => DeleteDomainResult>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO domains (${DOMAIN_COLUMNS})
       VALUES (@host, @root_redirect, @not_found_redirect, @https, @created_at, @updated_at)
       ON CONFLICT DO NOTHING`,
    );
    this.#all = db.prepare(`SELECT ${DOMAIN_COLUMNS} FROM domains ORDER BY host`);
    this.#byHost = db.prepare(`SELECT ${DOMAIN_COLUMNS} FROM domains WHERE host = ?`);
    this.#update = db.prepare(
      `UPDATE domains SET root_redirect = @root_redirect, not_found_redirect = @not_found_redirect,
         https = @https, updated_at = @updated_at
       WHERE host = @host`,
    );
    const inUse = db
      .prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM links WHERE domain = ?)')
      .pluck();
    const remove = db.prepare<[string]>('DELETE FROM domains WHERE host = ?');
    this.#delete = db.transaction((host: string): DeleteDomainResult => {
      if (inUse.get(host) === 1) return 'in-use';
      return remove.run(host).changes === 0 ? 'not-found' : 'deleted';
    });
  }

  async insertDomain(domain: LinkDomain): Promise<boolean> {
    return guardSqlite('store the domain', () => this.#insert.run(rowOf(domain)).changes === 1);
  }

  async listDomains(): Promise<readonly LinkDomain[]> {
    return guardSqlite('list domains', () => this.#all.all().map(domainFromRow));
  }

  async findDomain(host: string): Promise<LinkDomain | null> {
    return guardSqlite('read the domain', () => {
      const row = this.#byHost.get(host);
      return row === undefined ? null : domainFromRow(row);
    });
  }

  async updateDomain(domain: LinkDomain): Promise<boolean> {
    return guardSqlite('update the domain', () => this.#update.run(rowOf(domain)).changes === 1);
  }

  async deleteDomain(host: string): Promise<DeleteDomainResult> {
    return guardSqlite('delete the domain', () => this.#delete.immediate(host));
  }
}

function rowOf(domain: LinkDomain): Record<string, unknown> {
  return {
    host: domain.host,
    root_redirect: domain.rootRedirect,
    not_found_redirect: domain.notFoundRedirect,
    https: domain.https ? 1 : 0,
    created_at: domain.createdAt,
    updated_at: domain.updatedAt,
  };
}

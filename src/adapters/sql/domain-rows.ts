import type { LinkDomain } from '../../domain/link-domain.js';

/** The columns of `domains` (migrations: SQLite 0012, PostgreSQL 0009), in this order. */
export const DOMAIN_COLUMNS =
  'host, root_redirect, not_found_redirect, https, created_at, updated_at';

/** A row of `domains`: `https` is 0/1 on SQLite, a boolean on PostgreSQL. */
export interface DomainRow {
  host: string;
  root_redirect: string | null;
  not_found_redirect: string | null;
  https: number | boolean;
  created_at: number | string;
  updated_at: number | string;
}

export function domainFromRow(row: DomainRow): LinkDomain {
  return {
    host: row.host,
    rootRedirect: row.root_redirect,
    notFoundRedirect: row.not_found_redirect,
    https: row.https === true || row.https === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

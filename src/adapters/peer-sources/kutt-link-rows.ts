/** One row of Kutt's `links` joined with its `domains` row, as either driver returns it. */
export interface KuttLinkRow {
  readonly id: number | string;
  readonly address: string;
  readonly target: string;
  readonly description: string | null;
  readonly banned: unknown;
  readonly password: string | null;
  readonly expire_in: unknown;
  readonly visit_count: unknown;
  readonly created_at: unknown;
  readonly domain: string | null;
  readonly domain_banned: unknown;
}

/** What the Kutt reader asks of a database, whichever engine holds it. */
export interface KuttTables {
  count(): Promise<number>;
  /** Up to `limit` links with an id above `afterId`, by id. */
  page(afterId: number, limit: number): Promise<readonly KuttLinkRow[]>;
  close(): Promise<void>;
}

/**
 * The columns read (server/models/link.model.js, domain.model.js): `links` has no deleted
 * flag (Kutt deletes the row), a domain_id of null is Kutt's default domain.
 */
export const KUTT_LINK_COLUMNS = `l.id, l.address, l.target, l.description, l.banned, l.password,
  l.expire_in, l.visit_count, l.created_at, d.address AS domain, d.banned AS domain_banned`;

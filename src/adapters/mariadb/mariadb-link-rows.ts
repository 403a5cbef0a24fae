import type { RowDataPacket } from 'mysql2/promise';
import type { Link, RedirectStatus, StoredLinkState } from '../../domain/link.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';
import {
  previewColumnOf,
  previewFromColumn,
  smartColumnOf,
  smartFromColumn,
} from '../sql/smart-column.js';
import { isDuplicateEntry } from './mariadb-errors.js';

/**
 * A row of `links` as mysql2 reads it through the pool's type casts (BOOLEAN as a boolean,
 * BIGINT as a number, the JSON column `tags` as its text), or as a link event's JSON holds
 * it (migration 0005: the same names, `tags` an array).
 */
export interface LinkColumns {
  id: string;
  code: string;
  owner: string;
  destination: string;
  status_code: number;
  state: string;
  custom: boolean;
  title: string | null;
  /** JSON text in a `links` row (the pool's jsonStrings); an array in a link event's JSON. */
  tags: string | string[];
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  version: number;
  /** SmartOptions as JSON text, NULL for a plain link (issue 21). */
  smart: string | null;
  domain: string;
  /** LinkPreview as JSON text, NULL without one (issue 22). */
  preview: string | null;
  crawlable: boolean;
}

/** A `links` row as a query returns it. */
export interface LinkRow extends RowDataPacket, LinkColumns {}

/** A link from its columns: a row of `links`, or the JSON a link event holds (0005). */
export function fromRow(row: LinkColumns): Link {
  return {
    id: row.id,
    code: row.code,
    owner: row.owner,
    destination: row.destination,
    statusCode: row.status_code as RedirectStatus,
    state: row.state as StoredLinkState,
    custom: row.custom,
    title: row.title,
    tags: typeof row.tags === 'string' ? (JSON.parse(row.tags) as string[]) : row.tags,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    deletedAt: row.deleted_at,
    version: row.version,
    smart: smartFromColumn(row.smart),
    domain: row.domain,
    preview: previewFromColumn(row.preview),
    crawlable: row.crawlable,
  };
}

/**
 * A link's values in LINK_COLUMNS' order. Tags are JSON.stringify's text: JSON_CONTAINS and
 * JSON_OVERLAPS compare strings as written (escapes included), so the filters bind tags
 * written the same way (ADR 0140).
 */
export function linkValues(link: Link): unknown[] {
  return [
    link.id,
    link.code,
    link.owner,
    link.destination,
    link.statusCode,
    link.state,
    link.custom,
    link.title,
    JSON.stringify(link.tags),
    link.createdAt,
    link.updatedAt,
    link.expiresAt,
    link.deletedAt,
    link.version,
    smartColumnOf(link.smart),
    link.domain,
    previewColumnOf(link.preview),
    link.crawlable,
  ];
}

/** `( ?, ?, … )` for one link's values. */
const LINK_PLACEHOLDERS = `(${LINK_COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`;

/** One link, no condition: a code already held on its domain is a duplicate-key error. */
export const INSERT_LINK = `INSERT INTO links (${LINK_COLUMNS}) VALUES ${LINK_PLACEHOLDERS}`;

/**
 * Whether `error` is the unique key `links_domain_code` refusing a code its domain already
 * holds (any state, tombstones too): MariaDB has no ON CONFLICT, so the insert's failure is
 * the answer. A duplicate id is another matter, and stays an error. MySQL 8 names the key
 * `links.links_domain_code`.
 */
export function isCodeTaken(error: unknown): boolean {
  if (!isDuplicateEntry(error)) return false;
  const message = (error as { sqlMessage?: unknown }).sqlMessage;
  return typeof message === 'string' && /for key '(?:links\.)?links_domain_code'$/.test(message);
}

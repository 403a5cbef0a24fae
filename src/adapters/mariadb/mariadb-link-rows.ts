import type { QueryValues, RowDataPacket } from 'mysql2/promise';
import type { Link } from '../../domain/link.js';
import { linkFromRow, type LinkRowValues } from '../sql/link-rows.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';
import { previewColumnOf, smartColumnOf } from '../sql/smart-column.js';
import { isDuplicateEntry } from './mariadb-errors.js';

/**
 * A row of `links` as mysql2 reads it through the pool's type casts (BOOLEAN as a boolean,
 * BIGINT as a number, the JSON column `tags` as its text), or as a link event's JSON holds
 * it (migration 0005: the same names, `tags` an array).
 */
export type LinkColumns = Omit<LinkRowValues, 'tags'> & { tags: string | string[] };

/** A `links` row as a query returns it. */
export type LinkRow = RowDataPacket & LinkColumns;

/** A link from its columns: a row of `links`, or the JSON a link event holds (0005). */
export function fromRow(row: LinkColumns): Link {
  const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as string[]) : row.tags;
  return linkFromRow({ ...row, tags });
}

/**
 * A link's values in LINK_COLUMNS' order. Tags are JSON.stringify's text: JSON_CONTAINS and
 * JSON_OVERLAPS compare strings as written (escapes included), so the filters bind tags
 * written the same way (ADR 0140).
 */
export function linkValues(link: Link): QueryValues {
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

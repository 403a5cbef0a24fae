import type { Link } from '../../domain/link.js';
import { linkFromRow, type LinkRowValues } from '../sql/link-rows.js';
import { previewColumnOf, smartColumnOf } from '../sql/smart-column.js';

/** A row of `links` as better-sqlite3 reads it: booleans as 0/1, tags as JSON text. */
export type LinkRow = Omit<LinkRowValues, 'custom' | 'tags' | 'crawlable'> & {
  custom: number;
  tags: string;
  crawlable: number;
};

export function toRow(link: Link): LinkRow {
  return {
    id: link.id,
    code: link.code,
    owner: link.owner,
    destination: link.destination,
    status_code: link.statusCode,
    state: link.state,
    custom: link.custom ? 1 : 0,
    title: link.title,
    tags: JSON.stringify(link.tags),
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    expires_at: link.expiresAt,
    deleted_at: link.deletedAt,
    version: link.version,
    smart: smartColumnOf(link.smart),
    domain: link.domain,
    preview: previewColumnOf(link.preview),
    crawlable: link.crawlable ? 1 : 0,
  };
}

export function fromRow(row: LinkRow): Link {
  return linkFromRow({
    ...row,
    custom: row.custom === 1,
    tags: JSON.parse(row.tags) as string[],
    crawlable: row.crawlable === 1,
  });
}

export function fromRowOrNull(row: LinkRow | undefined): Link | null {
  return row === undefined ? null : fromRow(row);
}

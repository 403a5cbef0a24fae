import type { Link, RedirectStatus, StoredLinkState } from '../../domain/link.js';
import {
  previewColumnOf,
  previewFromColumn,
  smartColumnOf,
  smartFromColumn,
} from '../sql/smart-column.js';

/** A row of `links` as better-sqlite3 reads it: booleans as 0/1, tags as JSON text. */
export interface LinkRow {
  id: string;
  code: string;
  owner: string;
  destination: string;
  status_code: number;
  state: string;
  custom: number;
  title: string | null;
  tags: string;
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
  crawlable: number;
}

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
  return {
    id: row.id,
    code: row.code,
    owner: row.owner,
    destination: row.destination,
    statusCode: row.status_code as RedirectStatus,
    state: row.state as StoredLinkState,
    custom: row.custom === 1,
    title: row.title,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    deletedAt: row.deleted_at,
    version: row.version,
    smart: smartFromColumn(row.smart),
    domain: row.domain,
    preview: previewFromColumn(row.preview),
    crawlable: row.crawlable === 1,
  };
}

export function fromRowOrNull(row: LinkRow | undefined): Link | null {
  return row === undefined ? null : fromRow(row);
}

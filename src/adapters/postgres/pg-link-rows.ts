import type { Link, RedirectStatus, StoredLinkState } from '../../domain/link.js';
import { previewFromColumn, smartFromColumn } from '../sql/smart-column.js';

/** A row of `links` as pg reads it: booleans as booleans, tags as a jsonb array. */
export interface LinkRow {
  id: string;
  code: string;
  owner: string;
  destination: string;
  status_code: number;
  state: string;
  custom: boolean;
  title: string | null;
  tags: string[];
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

/**
 * PostgreSQL's text cannot hold U+0000, and a parameter holding it is an error, not a
 * miss; no stored value holds it either, so a lookup for one finds nothing.
 */
export const NUL = '\u0000';

export function fromRow(row: LinkRow): Link {
  return {
    id: row.id,
    code: row.code,
    owner: row.owner,
    destination: row.destination,
    statusCode: row.status_code as RedirectStatus,
    state: row.state as StoredLinkState,
    custom: row.custom,
    title: row.title,
    tags: row.tags,
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

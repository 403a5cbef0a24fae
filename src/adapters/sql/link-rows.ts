import type { Link, RedirectStatus, StoredLinkState } from '../../domain/link.js';
import { previewFromColumn, smartFromColumn } from './smart-column.js';

/**
 * A `links` row once the driver has read it into JavaScript values: booleans as booleans,
 * tags as an array (PostgreSQL's jsonb; the JSON text of MariaDB and SQLite parsed by their
 * readers, which also turn SQLite's 0/1 into booleans).
 */
export interface LinkRowValues {
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

export function linkFromRow(row: LinkRowValues): Link {
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

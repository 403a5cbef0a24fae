import type { CreateLinkInput } from '../services/links/create-link.js';
import { smartFieldsOf } from '../services/links/smart-link-fields.js';

/** The smart-link fields (issue 21), checked by the domain's one parser (smart-link-fields.ts). */
export interface SmartBody {
  rules?: unknown;
  variants?: unknown;
  password?: string | null;
  max_clicks?: number | null;
  fallback_url?: string | null;
  forward_query?: boolean;
  utm?: unknown;
}

/** What a shared link shows (issue 22); the preview checked by parse-preview-input.ts. */
export interface PreviewBody {
  preview?: unknown;
  crawlable?: boolean;
}

/** A create's body (SPEC §3): POST /v1/links, and each item of POST /v1/links/bulk. */
export interface CreateBody extends SmartBody, PreviewBody {
  destination: string;
  alias?: string | null;
  status_code?: number | null;
  expires_at?: string | null;
  ttl_seconds?: number | null;
  title?: string | null;
  tags?: string[];
  domain?: string | null;
}

/** What a create body asks of `createLink`: one mapping, so a bulk item is a single create. */
export function createInputOf(body: CreateBody): CreateLinkInput {
  return {
    destination: body.destination,
    alias: body.alias,
    statusCode: body.status_code,
    expiresAt: body.expires_at,
    ttlSeconds: body.ttl_seconds,
    title: body.title,
    tags: body.tags,
    domain: body.domain,
    smart: smartFieldsOf(body),
    preview: body.preview,
    crawlable: body.crawlable,
  };
}

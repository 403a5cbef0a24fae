import { HopError } from '../../domain/errors.js';
import { checkStatusCodeOrThrow } from './check-status-code-or-throw.js';
import type { CreateLinkInput } from './create-link.js';
import { isEncodedLinkPassword } from './link-password.js';
import type { SmartFields } from './smart-link-fields.js';
import {
  fromFileCell,
  TAG_SEPARATOR,
  type LinkFileColumn,
  type LinkFileLayout,
} from './link-file-layout.js';

/** What one row of a link file asks for: a create, and whether the link ends up disabled. */
export interface LinkRowRequest {
  readonly input: CreateLinkInput;
  readonly disabled: boolean;
}

/**
 * Turns one row's cells into a create request. Only what a cell cannot say as text is
 * checked here (the number of cells, a status that is not a number, the state); every rule
 * of a link itself (destination policy, alias rules, expiry, title, tags) is left to
 * `createLink`, so a file is held to exactly what the API is. An empty cell is an absent
 * field: a generated code, the default lifetime (HOP_DEFAULT_TTL), status 302, no title,
 * no tags, active.
 */
export function readLinkRowOrThrow(
  layout: LinkFileLayout,
  cells: readonly string[],
): LinkRowRequest {
  if (cells.length !== layout.width) {
    throw invalidRow(
      'row',
      `The row has ${cells.length} cells where the header names ${layout.width} columns.`,
    );
  }
  const cell = (column: LinkFileColumn): string | undefined => {
    const index = layout.cellOf[column];
    const value = index === undefined ? undefined : cells[index];
    return value === '' || value === undefined ? undefined : fromFileCell(value);
  };
  const statusCode = cell('status_code');
  const tags = cell('tags');
  const domain = cell('domain');
  const preview = cell('preview');
  const crawlable = cell('crawlable');
  const smart = smartFieldsOrThrow(cell);
  const passwordHash = passwordHashOrThrow(cell('password_hash'));
  return {
    input: {
      destination: cell('destination') ?? '',
      alias: cell('alias'),
      expiresAt: cell('expires_at'),
      statusCode:
        statusCode === undefined
          ? undefined
          : // Not a whole number cannot be a status; the service's message says which are.
            checkStatusCodeOrThrow(/^\d+$/.test(statusCode) ? Number(statusCode) : Number.NaN),
      title: cell('title'),
      // "a||b" keeps its empty tag, which the tag rule then refuses: nothing is dropped unseen.
      tags: tags === undefined ? undefined : tags.split(TAG_SEPARATOR),
      ...(smart === undefined ? {} : { smart }),
      ...(domain === undefined ? {} : { domain }),
      ...(preview === undefined ? {} : { preview: jsonCellOrThrow('preview', preview) }),
      ...(crawlable === undefined ? {} : { crawlable: crawlableOrThrow(crawlable) }),
      ...(passwordHash === undefined ? {} : { passwordHash }),
    },
    disabled: isDisabledOrThrow(cell('state')),
  };
}

/**
 * The row's smart-link cells as the API's fields (issue 21, ADR 0113), for `createLink` to
 * check with the API's parser: rules and variants are JSON, max_clicks a whole number,
 * forward_query true or false. Only what is not JSON, or not a number, is refused here; a
 * cell of the wrong kind goes on as text, so the parser names its field as the API would.
 */
function smartFieldsOrThrow(
  cell: (column: LinkFileColumn) => string | undefined,
): SmartFields | undefined {
  const fields: Partial<Record<keyof SmartFields, unknown>> = {};
  const rules = cell('rules');
  if (rules !== undefined) fields.rules = jsonCellOrThrow('rules', rules);
  const variants = cell('variants');
  if (variants !== undefined) fields.variants = jsonCellOrThrow('variants', variants);
  const maxClicks = cell('max_clicks');
  if (maxClicks !== undefined) {
    fields.max_clicks = /^\d+$/.test(maxClicks) ? Number(maxClicks) : maxClicks;
  }
  const fallbackUrl = cell('fallback_url');
  if (fallbackUrl !== undefined) fields.fallback_url = fallbackUrl;
  const forwardQuery = cell('forward_query');
  if (forwardQuery !== undefined) fields.forward_query = booleanCell(forwardQuery);
  return Object.keys(fields).length === 0 ? undefined : fields;
}

function booleanCell(text: string): boolean | string {
  if (text === 'true') return true;
  return text === 'false' ? false : text;
}

function jsonCellOrThrow(column: 'rules' | 'variants' | 'preview', text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const kind = column === 'preview' ? 'object' : 'array';
    throw invalidRow(column, `${column} must be a JSON ${kind}, as the API takes it.`);
  }
}

function crawlableOrThrow(text: string): boolean {
  const value = booleanCell(text);
  if (typeof value === 'boolean') return value;
  throw invalidRow(
    'crawlable',
    `crawlable must be true, false or empty, not ${JSON.stringify(text)}.`,
  );
}

/** The stored hash of the link's password, exactly as an export wrote it. */
function passwordHashOrThrow(hash: string | undefined): string | undefined {
  if (hash === undefined || isEncodedLinkPassword(hash)) return hash;
  throw invalidRow(
    'password_hash',
    'password_hash must be a hash as hop links export writes it (scrypt$N$r$p$salt$hash).',
  );
}

function isDisabledOrThrow(state: string | undefined): boolean {
  if (state === undefined || state === 'active') return false;
  if (state === 'disabled') return true;
  throw invalidRow(
    'state',
    `state must be "active", "disabled" or empty, not ${JSON.stringify(state)}.`,
  );
}

function invalidRow(field: string, detail: string): HopError {
  return new HopError('invalid-request', detail, { fields: [{ field, detail }] });
}

import { HopError } from '../../domain/errors.js';
import { checkStatusCodeOrThrow } from './check-status-code-or-throw.js';
import type { CreateLinkInput } from './create-link.js';
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
    },
    disabled: isDisabledOrThrow(cell('state')),
  };
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

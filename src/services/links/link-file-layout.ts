import { HopError } from '../../domain/errors.js';

/**
 * The columns of a link file (ADR 0069), in the order `hop links export` writes them.
 * `state` is ours, beyond the six: without it a round trip would turn every
 * disabled link back on. The last six carry a smart link's options (issue 21, ADR 0113),
 * empty for a plain link; a file without them (older exports) imports plain links.
 * `domain` (issue 22) is the short domain's host, empty for the default domain, so a file
 * moves between services with other public URLs; a file without it imports onto the
 * default domain. `preview` (the API's JSON object) and `crawlable` (true, or empty for
 * false) carry how a link looks when shared.
 */
export const LINK_FILE_COLUMNS = [
  'destination',
  'alias',
  'expires_at',
  'status_code',
  'title',
  'tags',
  'state',
  'rules',
  'variants',
  'password_hash',
  'max_clicks',
  'fallback_url',
  'forward_query',
  'domain',
  'preview',
  'crawlable',
] as const;
export type LinkFileColumn = (typeof LINK_FILE_COLUMNS)[number];

/** Separates the tags within one cell; the tag rule (domain/link-fields) never lets a tag hold it. */
export const TAG_SEPARATOR = '|';

/**
 * Spreadsheets run a cell that starts with = + - or @ (or a tab or CR) as a formula, so a
 * title such as =HYPERLINK(...) in an export would run when an operator opened the file.
 * Such cells are written behind an apostrophe, which spreadsheets show as text, and an
 * import takes one apostrophe off again. A cell whose text already starts with apostrophes
 * before such a character gets one more, so every text comes back exactly as it was.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A value as a link file's cell: never one a spreadsheet runs. */
export function toFileCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A link file's cell as the value it stands for: `toFileCell` undone. */
export function fromFileCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** Where each column of a file is: which cell of a row holds it, if the file has it at all. */
export interface LinkFileLayout {
  /** Cells every row must have: as many as the header names. */
  readonly width: number;
  readonly cellOf: Readonly<Partial<Record<LinkFileColumn, number>>>;
}

/**
 * Reads a file's header: any subset of LINK_FILE_COLUMNS in any order (names compared
 * without case or surrounding spaces), `destination` required. An unknown or repeated name
 * refuses the whole file, before any row: a misspelt column would otherwise be silently
 * dropped from every link.
 */
export function readLinkFileLayoutOrThrow(header: readonly string[]): LinkFileLayout {
  const cellOf: Partial<Record<LinkFileColumn, number>> = {};
  const problems: string[] = [];
  header.forEach((raw, cell) => {
    const name = raw.trim().toLowerCase();
    if (!isLinkFileColumn(name)) {
      problems.push(`unknown column ${JSON.stringify(raw)}`);
    } else if (cellOf[name] !== undefined) {
      problems.push(`column ${JSON.stringify(name)} appears twice`);
    } else {
      cellOf[name] = cell;
    }
  });
  if (cellOf.destination === undefined) problems.push('no "destination" column');
  if (problems.length > 0) {
    const detail =
      `The header (line 1) must name columns among ${LINK_FILE_COLUMNS.join(', ')}, ` +
      `destination included: ${problems.join('; ')}.`;
    throw new HopError('invalid-request', detail, { fields: [{ field: 'header', detail }] });
  }
  return { width: header.length, cellOf };
}

function isLinkFileColumn(name: string): name is LinkFileColumn {
  return (LINK_FILE_COLUMNS as readonly string[]).includes(name);
}

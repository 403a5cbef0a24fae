import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parse, type CsvError } from 'csv-parse';
import type { PeerLink, PeerRow } from '../../domain/peer-link.js';
import { PeerSourceError, type PeerRows } from './peer-rows.js';
import { clickCount, epochMs, textOrNull } from './peer-values.js';

/**
 * The CSV that Shlink's importer reads (`longUrl`, `shortCode`, `domain`, `title`, `tags`,
 * `shortUrl`) and the one its web client exports (`createdAt, domain, shortCode, shortUrl,
 * longUrl, title, tags, visits`). Header names are matched as shlink-importer does
 * (`CsvImporter::remapRecordHeaders`): lowercased, spaces removed, so one reader reads both.
 */
const COLUMN = {
  longUrl: 'longurl',
  shortCode: 'shortcode',
  shortUrl: 'shorturl',
  domain: 'domain',
  title: 'title',
  tags: 'tags',
  createdAt: 'createdat',
  visits: 'visits',
} as const;

/** The longest row read; a quote never closed would otherwise read the rest into one cell. */
const MAX_ROW_BYTES = 1024 * 1024;

/** The header: column positions by normalised name, and how many cells a row has. */
interface Header {
  readonly columns: ReadonlyMap<string, number>;
  readonly width: number;
}

interface ParsedRecord {
  readonly record: string[];
  readonly info: { readonly bytes: number; readonly lines: number };
}

/**
 * Reads a Shlink CSV file row by row from disk. A row that cannot be read (a bad quote, a
 * width unlike the header's, no URL, no code) is a PeerRowProblem at its line; a quote never
 * closed ends the file there, reported at its line.
 */
export async function readShlinkCsv(path: string): Promise<PeerRows> {
  let sizeBytes: number;
  try {
    sizeBytes = (await stat(path)).size;
  } catch (error) {
    throw new PeerSourceError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const skipped: { line: number; problem: string }[] = [];
  let bytesRead = 0;
  /** The line the last row handed out ends on. */
  let lastLine = 1;
  /** The line the last row parsed ends on (the parser reads ahead of the rows handed out). */
  let parsedLines = 1;
  const parser = parse({
    bom: true,
    info: true,
    record_delimiter: ['\r\n', '\n'],
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    max_record_size: MAX_ROW_BYTES,
    on_record: (record: string[], context: { lines: number }) => {
      parsedLines = context.lines;
      return record;
    },
    on_skip: (error: CsvError | undefined) => {
      if (error === undefined) return undefined;
      // A quote never closed is found at the file's end: it opened on the row after the
      // last one parsed.
      const line =
        error.code !== 'CSV_QUOTE_NOT_CLOSED' && typeof error['lines'] === 'number'
          ? error['lines']
          : parsedLines + 1;
      skipped.push({ line, problem: csvProblem(error) });
      return undefined;
    },
  });
  const input = createReadStream(path);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  const records = (parser as AsyncIterable<ParsedRecord>)[Symbol.asyncIterator]();

  const close = async () => {
    input.destroy();
    parser.destroy();
  };
  let first: IteratorResult<ParsedRecord>;
  try {
    first = await records.next();
  } catch (error) {
    await close();
    throw new PeerSourceError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (first.done === true) {
    await close();
    throw new PeerSourceError(`${path} is empty: its first line must name its columns`);
  }
  lastLine = first.value.info.lines;
  let header: Header;
  try {
    header = readHeader(path, first.value.record);
  } catch (error) {
    await close();
    throw error;
  }

  async function* rows(): AsyncGenerator<PeerRow> {
    try {
      for (;;) {
        let next: IteratorResult<ParsedRecord>;
        try {
          next = await records.next();
        } catch (error) {
          yield* skippedBefore(Infinity);
          yield { source: `line ${lastLine + 1}`, problem: (error as Error).message };
          return;
        }
        if (next.done === true) break;
        const { record, info } = next.value;
        const line = info.lines - lineBreaksIn(record);
        yield* skippedBefore(line);
        bytesRead = info.bytes;
        lastLine = info.lines;
        yield shlinkRow(`line ${line}`, record, header);
      }
      yield* skippedBefore(Infinity);
      bytesRead = sizeBytes;
    } finally {
      await close();
    }
  }
  function* skippedBefore(line: number): Generator<PeerRow> {
    while (skipped[0] !== undefined && skipped[0].line < line) {
      const { line: at, problem } = skipped.shift() as { line: number; problem: string };
      yield { source: `line ${at}`, problem };
    }
  }

  const iterator = rows();
  return {
    [Symbol.asyncIterator]: () => iterator,
    progress: () => ({ done: bytesRead, total: sizeBytes }),
    close: async () => {
      await iterator.return(undefined);
      await close();
    },
  };
}

/** Column positions by normalised name; refuses a header without a URL or a code column. */
function readHeader(path: string, header: readonly string[]): Header {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    const normalised = name.replaceAll(' ', '').trim().toLowerCase();
    if (!columns.has(normalised)) columns.set(normalised, index);
  });
  if (!columns.has(COLUMN.longUrl)) {
    throw new PeerSourceError(
      `${path}: the header names no longUrl column (Shlink's CSV: longUrl, shortCode, domain, title, tags)`,
    );
  }
  if (!columns.has(COLUMN.shortCode) && !columns.has(COLUMN.shortUrl)) {
    throw new PeerSourceError(
      `${path}: the header names neither shortCode nor shortUrl: the codes cannot be kept`,
    );
  }
  return { columns, width: header.length };
}

function shlinkRow(source: string, record: readonly string[], header: Header): PeerRow {
  const { columns, width } = header;
  if (record.length !== width) {
    return { source, problem: `${record.length} cells where the header names ${width}` };
  }
  const cell = (name: string) => {
    const index = columns.get(name);
    return index === undefined ? null : textOrNull(record[index]);
  };
  const destination = cell(COLUMN.longUrl);
  if (destination === null) return { source, problem: 'no longUrl' };
  const fromShortUrl = shortUrlParts(cell(COLUMN.shortUrl));
  if (fromShortUrl === 'unreadable') {
    return { source, problem: `shortUrl ${cell(COLUMN.shortUrl) ?? ''} is not a URL` };
  }
  const code = cell(COLUMN.shortCode) ?? fromShortUrl?.code ?? null;
  if (code === null) return { source, problem: 'no shortCode (nor a shortUrl to take it from)' };
  const createdAt = epochMs(cell(COLUMN.createdAt));
  if (createdAt === null) {
    return { source, problem: `createdAt ${cell(COLUMN.createdAt) ?? ''} is not a time` };
  }
  const clicks = clickCount(cell(COLUMN.visits));
  if (clicks === null) {
    return { source, problem: `visits ${cell(COLUMN.visits) ?? ''} is not a whole number` };
  }
  const link: PeerLink = {
    source,
    code,
    // An export's empty domain cell is Shlink's default domain; only a file with no domain
    // column at all takes the host of its shortUrl (ADR 0137).
    domain: columns.has(COLUMN.domain) ? cell(COLUMN.domain) : (fromShortUrl?.domain ?? null),
    destination,
    title: cell(COLUMN.title),
    tags: shlinkTags(cell(COLUMN.tags)),
    createdAt: createdAt ?? null,
    expiresAt: null,
    state: 'active',
    clicks,
    passwordHash: null,
    // Shlink's default REDIRECT_STATUS_CODE; the CSV does not say.
    statusCode: 302,
  };
  return link;
}

/** The code (its path, decoded) and host of a short URL; null when the cell is empty. */
function shortUrlParts(
  shortUrl: string | null,
): { code: string | null; domain: string } | null | 'unreadable' {
  if (shortUrl === null) return null;
  try {
    const url = new URL(shortUrl);
    const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
    return { code: path === '' ? null : path, domain: url.host };
  } catch {
    return 'unreadable';
  }
}

/** shlink-importer splits on `,` when the cell holds one, else on `|` (the export's). */
function shlinkTags(cell: string | null): string[] {
  if (cell === null) return [];
  const separator = cell.includes(',') ? ',' : '|';
  return [
    ...new Set(
      cell
        .split(separator)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
}

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside a cell that does not start with one';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted cell goes on after its closing quote';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted cell is never closed: the rest of the file was read into it';
    case 'CSV_MAX_RECORD_SIZE':
      return `the row is longer than ${MAX_ROW_BYTES} bytes (a quoted cell never closed?)`;
    default:
      return error.message;
  }
}

function lineBreaksIn(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++;
  }
  return count;
}

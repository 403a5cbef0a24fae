import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse, type CsvError, type Info, type Parser } from 'csv-parse';
import type { ImportRow } from '../../services/links/import-links.js';
import { LINK_FILE_COLUMNS } from '../../services/links/link-file-layout.js';
import { LineCounter } from './line-counter.js';

/**
 * Longest row accepted, in bytes. A plain link is a few KB at most, but a smart link at
 * every limit (20 rules of full conditions, 10 variants, 2048-character URLs) is about
 * 410 KB as CSV, and an export must import again (issue 21, ADR 0113). The bound stops a
 * quote left open from reading the rest of the file into one cell.
 */
export const MAX_ROW_BYTES = 1024 * 1024;

/** The file cannot be imported at all: unreadable, empty, or its header is not CSV. */
export class LinkCsvError extends Error {}

export interface LinkCsv {
  readonly header: readonly string[];
  /** The rows after the header, read as they are asked for. */
  readonly rows: AsyncIterable<ImportRow>;
  readonly sizeBytes: number;
  /** Bytes of the file up to the end of the last row handed out. */
  bytesRead(): number;
}

/** A syntax error csv-parse skipped, at the byte offset where its row starts. */
interface SkippedRow {
  readonly offset: number;
  readonly problem: string;
  readonly fatal: boolean;
  /**
   * Fatal to this parser, but a row on one line of its own can be stepped over: reading goes
   * on from the next line with a fresh parser.
   */
  readonly steppable: boolean;
}

/** Where a stretch of the file starts: its byte offset and the line that byte is on. */
interface Resume {
  readonly offset: number;
  readonly line: number;
}

/** A parser reading the file from `start`, with the line counter and skipped rows it feeds. */
interface Segment {
  readonly start: Resume;
  readonly counter: LineCounter;
  readonly parser: Parser;
  readonly skipped: SkippedRow[];
}

/**
 * Opens a link file and reads its header. The rows stream from disk through csv-parse
 * (RFC 4180: quoted cells may hold commas, quotes doubled, line breaks; a UTF-8 BOM is
 * dropped; blank lines are skipped). Each row carries the physical line it starts on.
 */
export async function openLinkCsv(file: string): Promise<LinkCsv> {
  let sizeBytes: number;
  try {
    sizeBytes = (await stat(file)).size;
    // csv-parse would decode a UTF-16 file by its BOM, but lines are counted by their LF
    // bytes, which UTF-16 text also holds inside other characters: every report would name
    // a wrong line. Refused whole, saying how to fix it.
    if (isUtf16(await readBytesAt(file, 0, 2))) {
      throw new LinkCsvError(`${file} is UTF-16: save it as UTF-8 (a spreadsheet's "CSV UTF-8")`);
    }
  } catch (error) {
    if (error instanceof LinkCsvError) throw error;
    throw new LinkCsvError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let bytesRead = 0;

  /**
   * Reads one stretch of the file from `segment`'s start. Returns where to read on from when
   * a bad row could be stepped over (see `nextLineAfter`), null at the end or at a row that
   * leaves the rest unreadable.
   */
  async function* readSegment(segment: Segment): AsyncGenerator<ImportRow, Resume | null> {
    const { counter, parser, skipped, start } = segment;
    const lineAt = (offset: number) => counter.lineAt(offset) + start.line - 1;
    const lineOfContentAt = (offset: number) => counter.lineOfContentAt(offset) + start.line - 1;
    /** Reports skipped rows before `offset`; done: the segment ends (resume, or stop). */
    const skippedBefore = async function* (
      offset: number,
    ): AsyncGenerator<ImportRow, { done: false } | { done: true; resume: Resume | null }> {
      while (skipped[0] !== undefined && skipped[0].offset < offset) {
        let row = skipped.shift() as SkippedRow;
        const line = lineOfContentAt(row.offset);
        // csv-parse reports each bad quote of a row on its own: one row, one report (the
        // fatal one, when there is one), or a file of N rows would report more than N.
        while (
          !row.fatal &&
          skipped[0] !== undefined &&
          skipped[0].offset < offset &&
          lineOfContentAt(skipped[0].offset) === line
        ) {
          row = skipped.shift() as SkippedRow;
        }
        if (!row.fatal) {
          yield { line, malformed: row.problem, fatal: false };
          continue;
        }
        const next = row.steppable ? await nextLineAfter(file, start.offset + row.offset) : null;
        yield { line, malformed: row.problem, fatal: next === null };
        return { done: true, resume: next === null ? null : { offset: next, line: line + 1 } };
      }
      return { done: false };
    };
    for await (const parsed of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const { record, info } = parsed;
      const before = yield* skippedBefore(info.bytes);
      if (before.done) return before.resume;
      // info.bytes ends past the row's line break; its line breaks inside quotes come before.
      const line = lineAt(info.bytes - 1) - lineBreaksIn(record);
      bytesRead = start.offset + info.bytes;
      yield { line, cells: record };
    }
    const after = yield* skippedBefore(Infinity);
    return after.done ? after.resume : null;
  }

  async function* rows(): AsyncGenerator<ImportRow> {
    let segment = openSegment(file, { offset: 0, line: 1 });
    try {
      for (;;) {
        const resume = yield* readSegment(segment);
        segment.parser.destroy();
        if (resume === null) return;
        // A fresh parser from the line after the bad row: nothing of its guesses carries over.
        segment = openSegment(file, resume);
      }
    } finally {
      segment.parser.destroy();
    }
  }

  const iterator = rows();
  let first: IteratorResult<ImportRow>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw new LinkCsvError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (first.done === true) {
    throw new LinkCsvError(
      `${file} is empty: its first line must be the header, such as ${LINK_FILE_COLUMNS.join(',')}`,
    );
  }
  if ('malformed' in first.value) {
    await iterator.return(undefined);
    throw new LinkCsvError(
      `line ${first.value.line}: the header is not valid CSV: ${first.value.malformed}`,
    );
  }
  if (first.value.cells.some((cell) => cell.includes('\r'))) {
    await iterator.return(undefined);
    throw new LinkCsvError(
      `${file} ends its lines with CR alone (classic Mac OS): save it with LF or CRLF line endings`,
    );
  }
  return {
    header: first.value.cells,
    rows: { [Symbol.asyncIterator]: () => iterator },
    sizeBytes,
    bytesRead: () => bytesRead,
  };
}

function skippedRow(error: CsvError): SkippedRow {
  // The error's `bytes` is where the parser's last row ended: where the bad one starts.
  const offset = typeof error.bytes === 'number' ? error.bytes : 0;
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      // The parser picks up again at the next line: only this row is lost.
      return {
        offset,
        fatal: false,
        steppable: false,
        problem:
          'a quote inside a cell that does not start with one ' +
          '(quote the whole cell and double the quote: "say ""hi""")',
      };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return {
        offset,
        fatal: true,
        steppable: true,
        problem: 'a quoted cell goes on after its closing quote',
      };
    case 'CSV_QUOTE_NOT_CLOSED':
      return { offset, fatal: true, steppable: false, problem: 'a quoted cell is never closed' };
    case 'CSV_MAX_RECORD_SIZE':
      return {
        offset,
        fatal: true,
        steppable: true,
        problem: `the row is longer than ${MAX_ROW_BYTES} bytes (a quoted cell never closed?)`,
      };
    default:
      return { offset, fatal: true, steppable: false, problem: error.message };
  }
}

function lineBreaksIn(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++;
  }
  return count;
}

/** Up to `count` bytes of the file from `position`: fewer at its end. */
async function readBytesAt(file: string, position: number, count: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(count), 0, count, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A UTF-16 byte order mark, little- or big-endian. */
function isUtf16(head: Buffer): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

function openSegment(file: string, start: Resume): Segment {
  const counter = new LineCounter();
  const skipped: SkippedRow[] = [];
  const parser = parse({
    bom: true,
    info: true,
    // Said outright: guessed from the first line, a CRLF file whose last line ends in a
    // bare LF kept that LF in its last cell, and the row was refused at the wrong line.
    record_delimiter: ['\r\n', '\n'],
    skip_empty_lines: true,
    // Rows of the wrong width are reported by the import with their line, not thrown.
    relax_column_count: true,
    skip_records_with_error: true,
    max_record_size: MAX_ROW_BYTES,
    on_skip: (error) => {
      if (error !== undefined) skipped.push(skippedRow(error));
      return undefined;
    },
  });
  // Errors reach the reader through the parser, which pipeline destroys with them.
  pipeline(createReadStream(file, { start: start.offset }), counter, parser, () => undefined);
  return { start, counter, parser, skipped };
}

/** How far ahead of a bad row's start its line's end is looked for. */
const STEP_OVER_LIMIT = 2 * MAX_ROW_BYTES;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Where the line after a bad row starts, if the row can be stepped over: it sits on one
 * line whose quotes pair up, so no quoted cell of it runs on into the next line, and the
 * next line starts a row. Null when its quotes do not pair up (the bad quote may open a
 * cell that really does span lines: nothing after it can be told apart) or no line end
 * comes within STEP_OVER_LIMIT. At the end of the file: the file's size.
 */
async function nextLineAfter(file: string, rowOffset: number): Promise<number | null> {
  const bytes = await readBytesAt(file, rowOffset, STEP_OVER_LIMIT);
  let at = 0;
  // The row's offset is where the previous one ended: blank lines may come first.
  while (at < bytes.length && (bytes[at] === NEWLINE || bytes[at] === CARRIAGE_RETURN)) at++;
  let quotes = 0;
  for (; at < bytes.length; at++) {
    if (bytes[at] === QUOTE) quotes++;
    else if (bytes[at] === NEWLINE) return quotes % 2 === 0 ? rowOffset + at + 1 : null;
  }
  const atEnd = bytes.length < STEP_OVER_LIMIT;
  return atEnd && quotes % 2 === 0 ? rowOffset + bytes.length : null;
}

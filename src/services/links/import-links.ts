import { HopError, isHopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import { createLink } from './create-link.js';
import { BatchingLinkRepository } from './batching-link-repository.js';
import type { LinkFileLayout } from './link-file-layout.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { readLinkRowOrThrow, type LinkRowRequest } from './read-link-row.js';

/** One row of a link file as its reader found it; `line` is where it starts (the header is 1). */
export type ImportRow =
  | { readonly line: number; readonly cells: readonly string[] }
  /**
   * A row the file's syntax made unreadable. `fatal`: the reader cannot tell where the next
   * row starts (an unclosed quote, say), so nothing after it is read.
   */
  | { readonly line: number; readonly malformed: string; readonly fatal: boolean };

export type ImportOutcome =
  | { readonly kind: 'imported'; readonly line: number; readonly link: Link }
  /** The row's own fault: its problem detail says what (the same as the API's answer). */
  | { readonly kind: 'rejected'; readonly line: number; readonly error: HopError }
  /** Not the row's fault (the store did not answer, say): the import stops. */
  | { readonly kind: 'failed'; readonly line: number; readonly error: unknown };

export interface ImportSummary {
  readonly imported: number;
  readonly rejected: number;
  readonly failed: number;
  /** Why and where the import stopped before the end of the file; null when it read it all. */
  readonly stopped: {
    readonly line: number;
    readonly error: unknown;
    /** The file could not be read past this line; false: a row could not be stored. */
    readonly unreadable: boolean;
  } | null;
  /** Where the last row read starts (0 for none): no row after it was read. */
  readonly lastLine: number;
}

export interface ImportLinksOptions {
  /** Rows in flight at once; their inserts are written to the store together. */
  readonly concurrency: number;
  /** Told of every row, in the order of the file, as soon as the rows before it are done. */
  readonly onOutcome?: (outcome: ImportOutcome) => void;
}

/** A row that has been started: its outcome, and the alias it is taking, if any. */
interface StartedRow {
  readonly alias: string | null;
  readonly outcome: Promise<ImportOutcome>;
}

/**
 * Imports a link file's rows, each through `createLink` exactly as the API would create it
 * (ADR 0072). A bad row is reported and the import carries on; a failure that is not the
 * row's (a store that does not answer) stops it, since every later row would fail alike.
 *
 * Rows are started in file order, at most `concurrency` at a time, and reported in file
 * order; the inserts of the rows in flight are written together (BatchingLinkRepository). Two
 * rows asking for the same alias never run at once: the later waits for the earlier, so
 * the first row that may have an alias gets it, as if the file were imported one row at a
 * time. Rows are pulled from `rows` only as fast as they are created, so a file of any
 * size takes the memory of `concurrency` rows.
 */
export async function importLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  layout: LinkFileLayout,
  rows: AsyncIterable<ImportRow>,
  options: ImportLinksOptions,
): Promise<ImportSummary> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const batched: LinkServiceDeps = {
    ...deps,
    links: new BatchingLinkRepository(deps.links, concurrency),
  };
  const counts = { imported: 0, rejected: 0, failed: 0 };
  let stopped: ImportSummary['stopped'] = null;
  let lastLine = 0;
  const window: StartedRow[] = [];
  const settleOldest = async (): Promise<void> => {
    const started = window.shift();
    if (started === undefined) return;
    const outcome = await started.outcome;
    counts[outcome.kind]++;
    if (outcome.kind === 'failed') {
      stopped ??= { line: outcome.line, error: outcome.error, unreadable: false };
    }
    options.onOutcome?.(outcome);
  };
  const drain = async (): Promise<void> => {
    while (window.length > 0) await settleOldest();
  };

  try {
    for await (const row of rows) {
      const request = requestOf(layout, row);
      const alias = request.kind === 'create' ? (request.row.input.alias ?? null) : null;
      while (
        stopped === null &&
        (window.length >= concurrency || (alias !== null && isTaking(window, alias)))
      ) {
        await settleOldest();
      }
      if (stopped !== null) break;
      lastLine = row.line;
      window.push({
        alias,
        outcome:
          request.kind === 'create'
            ? createRow(batched, principal, row.line, request.row)
            : Promise.resolve({ kind: 'rejected', line: row.line, error: request.error }),
      });
      if (request.kind === 'reject' && 'malformed' in row && row.fatal) {
        stopped = { line: row.line, error: request.error, unreadable: true };
        break;
      }
    }
  } finally {
    // Rows already started finish and are reported, whatever stopped the loop.
    await drain();
  }
  return { ...counts, stopped, lastLine };
}

type RowRequest =
  | { readonly kind: 'create'; readonly row: LinkRowRequest }
  | { readonly kind: 'reject'; readonly error: HopError };

function requestOf(layout: LinkFileLayout, row: ImportRow): RowRequest {
  if ('malformed' in row) {
    const detail = `The row is not valid CSV: ${row.malformed}`;
    return { kind: 'reject', error: new HopError('invalid-request', detail) };
  }
  try {
    return { kind: 'create', row: readLinkRowOrThrow(layout, row.cells) };
  } catch (error) {
    if (isHopError(error)) return { kind: 'reject', error };
    throw error;
  }
}

function isTaking(window: readonly StartedRow[], alias: string): boolean {
  return window.some((started) => started.alias === alias);
}

async function createRow(
  deps: LinkServiceDeps,
  principal: Principal,
  line: number,
  row: LinkRowRequest,
): Promise<ImportOutcome> {
  try {
    const input = { ...row.input, disabled: row.disabled };
    const { link } = await createLink(deps, principal, input);
    return { kind: 'imported', line, link };
  } catch (error) {
    return isRowsFault(error) ? { kind: 'rejected', line, error } : { kind: 'failed', line, error };
  }
}

/** A refusal the same row would get again; retryable errors and unknown ones are not its fault. */
function isRowsFault(error: unknown): error is HopError {
  return isHopError(error) && !error.retryable;
}

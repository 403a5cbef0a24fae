import type Database from 'better-sqlite3';
import { HOUR_MS } from '../../domain/click-fold.js';
import type { StoredVisit, VisitLog, VisitPageQuery } from '../../ports/visit-log.js';
import { rowsForPage, visitsOfRows, type VisitLogRow } from '../sql/visit-rows.js';
import { guardSqlite } from './sqlite-errors.js';
import { IDS_PER_BLOCK, type BlockRow } from './sqlite-fold-logs.js';

/** A block as read: its id, newest `at` and bucket rows (JSON). */
type BlockOfRows = [id: number, newestAt: number, rows: string];

/**
 * The visit log in clicks.db (click-migrations/0006, 0012), written by the fold (and the
 * spool's write-out) as blocks: one row per link, hour and write, holding its buckets'
 * rows (ADR 0147). A bucket row's id is its block's id times IDS_PER_BLOCK plus its
 * place from the block's end, so that rows of one block and millisecond read back in the
 * order they were written, as rows of their own did (ADR 0130).
 */
export class SqliteVisitLog implements VisitLog {
  readonly #blocks: Database.Statement<[string, number, number, number], BlockOfRows>;
  readonly #forget: Database.Statement<[number, number]>;

  constructor(db: Database.Database) {
    // A block spans at most an hour: one whose newest `at` is an hour past the page's end
    // holds nothing for it, which bounds the walk back to the page's position.
    this.#blocks = db
      .prepare<[string, number, number, number], BlockOfRows>(
        `SELECT id, newest_at, rows FROM visit_blocks
         WHERE link_id = ? AND newest_at >= ? AND newest_at < ? AND oldest_at < ?
         ORDER BY newest_at DESC, id DESC`,
      )
      .raw();
    // Oldest first, a bounded batch: the write lock is held briefly each time. A block goes
    // once its newest visit is older than the cutoff: a visit outlives it by an hour at most.
    this.#forget = db.prepare(
      `DELETE FROM visit_blocks WHERE id IN
         (SELECT id FROM visit_blocks WHERE newest_at < ? ORDER BY newest_at LIMIT ?)`,
    );
  }

  async page(query: VisitPageQuery): Promise<readonly StoredVisit[]> {
    return guardSqlite('read visits', () => {
      const { linkId, fromMs, toMs, after, limit } = query;
      const wanted = rowsForPage(after, limit);
      // Visits at or before the position's `at`, before the page's end.
      const end = after === null ? toMs : Math.min(toMs, after.at + 1);
      const found: VisitLogRow[] = [];
      for (const [blockId, newestAt, json] of this.#blocks.iterate(
        linkId,
        fromMs,
        end + HOUR_MS,
        end,
      )) {
        // Blocks come newest first: once `wanted` rows are newer than this block's newest,
        // no row of it or of any block after it is among them.
        if (found.length >= wanted) {
          found.sort(newestFirst);
          if ((found[wanted - 1] as VisitLogRow).visit.at > newestAt) break;
        }
        const rows = JSON.parse(json) as BlockRow[];
        const lastId = blockId * IDS_PER_BLOCK + rows.length - 1;
        rows.forEach((row, index) => {
          const id = lastId - index;
          const at = row[0];
          if (at < fromMs || at >= end) return;
          if (after !== null && at === after.at && id > after.id) return;
          found.push(visitLogRowOf(linkId, id, row));
        });
      }
      found.sort(newestFirst);
      return visitsOfRows(found.slice(0, wanted), after, limit);
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite('forget visits', () => this.#forget.run(olderThanMs, limit).changes);
  }

  async prepare(): Promise<void> {
    // One table: nothing to make ahead.
  }
}

/** (at, id) descending: the log's order. */
function newestFirst(a: VisitLogRow, b: VisitLogRow): number {
  return b.visit.at - a.visit.at || b.id - a.id;
}

function visitLogRowOf(linkId: string, id: number, row: BlockRow): VisitLogRow {
  const [at, country, city, device, os, browser, language, referrerHost, bot, clicks] = row;
  return {
    id,
    visit: {
      linkId,
      at,
      country,
      city,
      device,
      os,
      browser,
      language,
      referrerHost,
      bot: bot === 1,
    },
    clicks,
  };
}

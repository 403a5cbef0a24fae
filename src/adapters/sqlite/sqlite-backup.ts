import { existsSync, renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What one file's backup copied. */
export interface SqliteFileBackup {
  readonly source: string;
  readonly target: string;
  readonly pages: number;
}

/** A page count that SQLite reads as "all of them": the copy is made in one step. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies a live SQLite database with SQLite's online backup API (sqlite3_backup_*), as
 * another connection beside a running hop: a WAL reader never blocks its writers. All
 * pages go in one step, so the copy is one consistent snapshot; in steps, every write
 * between them would restart the copy. Written to `<target>.partial`, checked
 * (`PRAGMA quick_check`) and renamed into place, so `target` is whole or absent.
 */
export async function backupSqliteFile(source: string, target: string): Promise<SqliteFileBackup> {
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const done = await db.backup(partial, { progress: () => ALL_PAGES });
    const copy = new Database(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok')
        throw new Error(`the copy of ${source} failed its check: ${String(check)}`);
      // One file to restore: the copy carries no WAL beside it.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    renameSync(partial, target);
    return { source, target, pages: done.totalPages };
  } catch (error) {
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) {
      if (existsSync(leftover)) rmSync(leftover);
    }
    throw error;
  } finally {
    db.close();
  }
}

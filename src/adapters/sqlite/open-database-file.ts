import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens (creating its folder) a SQLite file as every hop database is used: WAL, so readers
 * go on while one writer commits; NORMAL sync, durable across process crashes (a power cut
 * may lose the last commits, never corrupt the file); and a busy timeout, because another
 * connection (the CLI, the aggregator thread, `hop worker`) may hold the write lock briefly.
 */
export function openDatabaseFile(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

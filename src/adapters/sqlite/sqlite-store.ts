import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../../ports/store.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { guardSqlite } from './sqlite-errors.js';
import { SqliteLinkStore } from './sqlite-link-store.js';
import { applyMigrations } from './sqlite-migrations.js';

export interface SqliteStoreOptions {
  /** Path of the database file; its folder is created if missing. */
  readonly file: string;
}

/** The embedded store: one SQLite file in WAL mode (SPEC §4). */
export class SqliteStore implements Store {
  readonly links: SqliteLinkStore;
  readonly keys: SqliteApiKeyStore;
  /** Versions applied when this store was opened (statements need the current schema). */
  readonly migrationsAppliedAtOpen: readonly number[];
  readonly #db: Database.Database;

  private constructor(db: Database.Database, applied: readonly number[]) {
    this.#db = db;
    this.migrationsAppliedAtOpen = applied;
    this.links = new SqliteLinkStore(db);
    this.keys = new SqliteApiKeyStore(db);
  }

  static open(options: SqliteStoreOptions): SqliteStore {
    mkdirSync(dirname(options.file), { recursive: true });
    const db = new Database(options.file);
    // WAL lets readers go on while one writer commits; NORMAL is durable across process
    // crashes (a power cut may lose the last commits, never corrupt the file).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // The default page cache is 2 MB: random code lookups into a million-row index would go
    // to the OS for nearly every page. 64 MB of cache plus memory-mapped reads keep the hot
    // part of the code index in memory.
    db.pragma('cache_size = -65536');
    db.pragma('mmap_size = 268435456');
    // Another process (the CLI next to a running server) may hold the write lock briefly.
    db.pragma('busy_timeout = 5000');
    const applied = applyMigrations(db);
    return new SqliteStore(db, applied);
  }

  async ping(): Promise<void> {
    guardSqlite('answer', () => this.#db.prepare('SELECT 1').get());
  }

  async migrate(): Promise<readonly number[]> {
    return applyMigrations(this.#db);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

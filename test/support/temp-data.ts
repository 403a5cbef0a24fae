import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';

interface HasAfter {
  after(fn: () => unknown): void;
}

/** A fresh folder for one test's data, removed after it. */
export function tempDataDir(t: HasAfter, prefix = 'hop-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A fresh SqliteStore (hop.db and clicks.db) in its own folder, closed and removed after. */
export function openTempSqliteStore(t: HasAfter): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'hop-store-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** A hop data dir holding `count` seeded links, and the file listing their codes. */
interface SeededStore {
  /** For HOP_DATA_DIR: holds hop.db. */
  readonly dataDir: string;
  readonly codesFile: string;
  /** Seconds the seeding took in this run; null when an earlier run's store was reused. */
  readonly seedSeconds: number | null;
}

const CODES_FILE = 'codes.txt';

/**
 * Seeds `count` links with the CLI, as an operator would. Without a seed root the store
 * goes into `scratchDir` (the run's temporary folder). With one, it goes into
 * `<seedRoot>/seed-<count>/` and is reused by any later run asking for the same count, so
 * a 10,000,000-link store is seeded once. Reuse is safe: hop migrates on start and the
 * admin key comes from HOP_BOOTSTRAP_ADMIN_KEY (an existing one is kept). Seeding happens
 * in a side folder renamed into place only when complete, so an interrupted seeding is
 * never taken for a finished one.
 */
export function prepareSeededStore(options: {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly count: number;
  readonly scratchDir: string;
  readonly seedRoot: string | undefined;
}): SeededStore {
  if (options.seedRoot === undefined) {
    return {
      ...seed(options.root, options.env, options.count, options.scratchDir),
      dataDir: options.scratchDir,
    };
  }
  const dataDir = join(resolve(options.seedRoot), `seed-${options.count}`);
  const codesFile = join(dataDir, CODES_FILE);
  if (existsSync(codesFile) && existsSync(join(dataDir, 'hop.db'))) {
    return { dataDir, codesFile, seedSeconds: null };
  }
  const partial = `${dataDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  let seedSeconds: number;
  try {
    ({ seedSeconds } = seed(options.root, options.env, options.count, partial));
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(partial, dataDir);
  return { dataDir, codesFile, seedSeconds };
}

/** How many links the store holds: the seeded ones, plus any that `mixed` runs created. */
export function countLinks(dataDir: string): number {
  // Read-write, though it only reads: a read-only handle cannot open a WAL database whose
  // -shm file is gone, as after a run that killed hop. Nothing else has the file open yet.
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS links FROM links').get() as { links: number }).links;
  } finally {
    db.close();
  }
}

/**
 * A copy of a store's database in `toDir`, made with SQLite's online backup (safe whatever
 * state the source's WAL is in), without queued clicks: a store reused from an earlier run
 * may hold batches a killed hop flushed and never folded, which the copy's hop would fold
 * on top of the clicks it is counted on. The aggregates already folded stay.
 */
export async function copyStore(dataDir: string, toDir: string): Promise<void> {
  mkdirSync(toDir, { recursive: true });
  const target = join(toDir, 'hop.db');
  const source = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    await source.backup(target);
  } finally {
    source.close();
  }
  const copy = new Database(target, { fileMustExist: true });
  try {
    // A store seeded before migration 0003 has no queue: the hop that opens it makes one.
    const queue = copy
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'click_queue'")
      .get();
    if (queue !== undefined) copy.exec('DELETE FROM click_queue');
  } finally {
    copy.close();
  }
}

function seed(
  root: string,
  env: NodeJS.ProcessEnv,
  count: number,
  dataDir: string,
): { codesFile: string; seedSeconds: number } {
  const codesFile = join(dataDir, CODES_FILE);
  const started = Date.now();
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/hop.ts',
      'links',
      'seed',
      '--count',
      String(count),
      '--codes',
      codesFile,
    ],
    { cwd: root, env: { ...env, HOP_DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return { codesFile, seedSeconds: (Date.now() - started) / 1000 };
}

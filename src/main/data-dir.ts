import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';

/**
 * Makes sure hop can keep its SQLite files in HOP_DATA_DIR before anything opens them:
 * creates the folder (and missing parents) if need be, and proves it writable by writing
 * a file in it. Anything unusable is one ConfigError line, at once (issue 20: Node's own
 * recursive mkdir loops forever on /proc/x; a file in the way or a read-only folder only
 * failed deep inside SQLite). Nothing to do when the store is a shared database.
 */
export function prepareDataDir(config: Config): void {
  if (config.database !== undefined) return;
  const dir = config.dataDir;
  const refuse = (reason: string): never => {
    throw new ConfigError([`HOP_DATA_DIR=${JSON.stringify(dir)} cannot be used: ${reason}`]);
  };
  for (const folder of missingFolders(dir, refuse)) {
    try {
      mkdirSync(folder);
    } catch (error) {
      refuse(`hop cannot create ${folder} (${errorCode(error)})`);
    }
  }
  const probe = join(dir, `.hop-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    refuse(`hop cannot write in it (${errorCode(error)})`);
  }
}

/**
 * For a CLI command that works on existing data: the database must already be there. A
 * command run in the wrong folder (or without the server's .env) would otherwise create
 * an empty database and answer from it ("exported 0 links").
 */
export function requireExistingDatabase(config: Config): void {
  if (hasDatabase(config)) return;
  throw new ConfigError([
    `there is no hop database in ${config.dataDir} (HOP_DATA_DIR): run this where hop serve ` +
      `runs, with its .env or the same HOP_* variables; \`hop migrate\` creates a new one`,
  ]);
}

/** True when the store is a shared database, or hop.db is where HOP_DATA_DIR says. */
export function hasDatabase(config: Config): boolean {
  return config.database !== undefined || existsSync(config.databaseFile);
}

/**
 * The folders to create, outermost first, for `dir` to exist; refuses when something in
 * the way is a file rather than a folder. Walks up by hand, not with mkdir's recursive
 * option, which never returns for a path under /proc.
 */
function missingFolders(dir: string, refuse: (reason: string) => never): string[] {
  const missing: string[] = [];
  let path = dir;
  for (;;) {
    if (existsSync(path)) {
      if (!statSync(path).isDirectory()) {
        refuse(path === dir ? 'it is a file, not a folder' : `${path} is a file, not a folder`);
      }
      return missing.reverse();
    }
    missing.push(path);
    const parent = dirname(path);
    if (parent === path) return missing.reverse();
    path = parent;
  }
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

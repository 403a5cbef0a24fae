import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { backupSqliteFile, type SqliteFileBackup } from '../adapters/sqlite/sqlite-backup.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';
import { requireExistingDatabase } from './data-dir.js';

/** Where `hop backup FILE` puts the click database: beside FILE, as SQLite puts FILE-wal. */
export function clicksBackupFile(file: string): string {
  return `${file}-clicks`;
}

/**
 * `hop backup FILE` (ADR 0106): the link database (links, keys, codes) to FILE and the
 * click database to FILE-clicks, each an online, consistent copy taken beside a running
 * hop. Refuses a shared database (pg_dump or mariadb-backup back those up), a missing
 * database, and targets that exist (a backup never overwrites one).
 */
export async function backupStore(config: Config, file: string): Promise<SqliteFileBackup[]> {
  if (config.database !== undefined) {
    throw new ConfigError([
      'hop backup copies the embedded SQLite files; HOP_DATABASE_URL is set, so back up ' +
        (config.database.engine === 'postgres'
          ? 'PostgreSQL with its own tools (pg_dump)'
          : 'MariaDB with its own tools (mariadb-backup or mariadb-dump)'),
    ]);
  }
  requireExistingDatabase(config);
  const pairs: [string, string][] = [[config.databaseFile, file]];
  if (existsSync(config.clicksDatabaseFile)) {
    pairs.push([config.clicksDatabaseFile, clicksBackupFile(file)]);
  }
  const taken = pairs.map(([, target]) => target).filter((target) => existsSync(target));
  if (taken.length > 0) {
    throw new ConfigError([`${taken.join(' and ')} already exists: name a new backup file`]);
  }
  if (!existsSync(dirname(file))) {
    throw new ConfigError([`${dirname(file)} does not exist: create the folder first`]);
  }
  const done: SqliteFileBackup[] = [];
  for (const [source, target] of pairs) done.push(await backupSqliteFile(source, target));
  return done;
}

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';

export function addBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('copy the SQLite databases while hop runs (SQLite online backup)')
    .argument('<file>', 'the backup of hop.db; clicks.db goes to <file>-clicks')
    .addHelpText(
      'after',
      `
Copies hop.db (links, keys, codes) to <file> and clicks.db (click counts) to <file>-clicks
with SQLite's online backup API: each a consistent snapshot, taken beside a running
hop serve, which goes on serving and writing. Neither file may exist yet. Each copy is
written to <file>.partial, checked, and renamed, so a file that is there is whole.

To restore: stop hop, then copy <file> to $HOP_DATA_DIR/hop.db and <file>-clicks to
$HOP_DATA_DIR/clicks.db (removing any hop.db-wal, hop.db-shm, clicks.db-wal and
clicks.db-shm there), and start hop. On PostgreSQL (HOP_DATABASE_URL), use pg_dump.

Example:
  $ hop backup /var/backups/hop/hop-$(date +%F).db`,
    )
    .action(async (file: string) => {
      const config = loadCliConfig();
      const { backupStore } = await import('../../main/backup-store.js');
      const copies = await backupStore(config, resolve(file)).catch(exitOnConfigError);
      for (const copy of copies) {
        process.stdout.write(
          `hop: backed up ${copy.source} to ${copy.target} (${copy.pages} pages)\n`,
        );
      }
    });
}

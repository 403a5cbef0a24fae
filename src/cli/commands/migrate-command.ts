import type { Command } from 'commander';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';

export function addMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .action(async () => {
      const config = loadCliConfig();
      const [{ composeRuntime }, { describeStore }] = await Promise.all([
        import('../../main/compose.js'),
        import('../../main/open-store.js'),
      ]);
      const runtime = await composeRuntime(config, createLogger(config.logLevel)).catch(
        exitOnConfigError,
      );
      const applied = [
        ...runtime.store.migrationsAppliedAtOpen,
        ...(await runtime.store.migrate()),
      ];
      await runtime.close();
      process.stdout.write(
        applied.length === 0
          ? `hop: ${describeStore(config)} is up to date\n`
          : `hop: applied migrations ${applied.join(', ')} to ${describeStore(config)}\n`,
      );
    });
}

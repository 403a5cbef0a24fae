import type { Command } from 'commander';
import { startServer, stopOnSignals } from '../../main/serve.js';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';

export function addServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('run the HTTP service (the default command)')
    .action(async () => {
      const config = loadCliConfig();
      const logger = createLogger(config.logLevel);
      const server = await startServer(config, logger).catch(exitOnConfigError);
      stopOnSignals(server, config, logger);
    });
}

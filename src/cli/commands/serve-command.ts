import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';
import { serveV8FlagsFor } from '../serve-v8-flags.js';

export function addServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('run the HTTP service (the default command)')
    .action(async () => {
      // Before anything is compiled for a request (ADR 0028, ADR 0154).
      for (const flag of serveV8FlagsFor(process.execArgv)) setFlagsFromString(flag);
      const config = loadCliConfig();
      const logger = createLogger(config.logLevel);
      const [{ startServer }, { stopOnSignals }] = await Promise.all([
        import('../../main/serve.js'),
        import('../../main/stop-on-signals.js'),
      ]);
      const server = await startServer(config, logger).catch(exitOnConfigError);
      stopOnSignals(server, config, logger);
    });
}

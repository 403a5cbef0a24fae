import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { createLogger } from '../../observability/logger.js';
import { exitOnConfigError, loadCliConfig } from '../load-cli-config.js';
import { inliningFlagsFor } from '../inlining-flags.js';

export function addServeCommand(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('run the HTTP service (the default command)')
    .action(async () => {
      collectGarbageSooner();
      for (const flag of inliningFlagsFor(process.execArgv)) setFlagsFromString(flag);
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

/**
 * V8 lets the old generation grow well past what is live before a full collection. L1
 * turns over all the time when requests miss (every fill replaces an entry that already
 * aged into the old generation), so the heap would sit far above its live size: with 10M
 * links and a full L1, hop was 340 to 434 MB resident by default and 292 to 296 MB with
 * 30% growth, for about 7% fewer requests a second (measured on this machine; see
 * ADR 0028). An operator's own `node --heap-growing-percent=N` on the command line wins.
 */
function collectGarbageSooner(): void {
  if (!process.execArgv.some((flag) => /heap[-_]growing[-_]percent/.test(flag))) {
    setFlagsFromString('--heap-growing-percent=30');
  }
}

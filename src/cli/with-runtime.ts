import type { Runtime } from '../main/compose.js';
import { createLogger } from '../observability/logger.js';
import { isHopError } from '../domain/errors.js';
import { exitOnConfigError, loadCliConfig } from './load-cli-config.js';

/** Runs one CLI action against a composed runtime, closing it after; domain errors exit 1. */
export async function withRuntime(action: (runtime: Runtime) => Promise<void>): Promise<void> {
  const config = loadCliConfig();
  let runtime: Runtime;
  try {
    // Loaded here, not at start: `hop --help` and a config error need none of the adapters.
    const { composeRuntime } = await import('../main/compose.js');
    runtime = await composeRuntime(config, createLogger('warn'));
  } catch (error) {
    exitOnConfigError(error);
  }
  try {
    await action(runtime);
  } catch (error) {
    if (!isHopError(error)) throw error;
    await runtime.close();
    const fields = error.fields.map((f) => `  ${f.field}: ${f.detail}`);
    process.stderr.write(`hop: ${error.detail}\n${fields.join('\n')}${fields.length ? '\n' : ''}`);
    process.exit(1);
  }
  await runtime.close();
}

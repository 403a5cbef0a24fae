import type { Config } from '../config/config.js';
import type { Runtime } from '../main/compose.js';
import { hasDatabase, requireExistingDatabase } from '../main/data-dir.js';
import { createLogger } from '../observability/logger.js';
import { isHopError } from '../domain/errors.js';
import { exitOnConfigError, loadCliConfig } from './load-cli-config.js';

export interface RuntimeUse {
  /**
   * The command adds data (links, keys, a code pool) and may start a new database, saying
   * on stderr that it did, and where. Every other command works on the server's data and
   * refuses a folder without a database (ADR 0105).
   */
  readonly createsDatabase?: boolean;
  /**
   * The command only reads: it composes without Redis and NATS, which only carry
   * changes and clicks, so a read neither waits on them nor reports them (ADR 0105).
   */
  readonly readOnly?: boolean;
}

/** Runs one CLI action against a composed runtime, closing it after; domain errors exit 1. */
export async function withRuntime(
  action: (runtime: Runtime) => Promise<void>,
  use: RuntimeUse = {},
): Promise<void> {
  const loaded = loadCliConfig();
  const config = use.readOnly === true ? withoutBrokers(loaded) : loaded;
  let runtime: Runtime;
  const databaseIsNew = !hasDatabase(config);
  try {
    if (use.createsDatabase !== true) requireExistingDatabase(config);
    // Loaded here, not at start: `hop --help` and a config error need none of the adapters.
    const { composeRuntime } = await import('../main/compose.js');
    runtime = await composeRuntime(config, createLogger('warn'));
  } catch (error) {
    exitOnConfigError(error);
  }
  if (databaseIsNew) {
    process.stderr.write(
      `hop: created a new database in ${config.dataDir}; hop serve sees it only with the same HOP_DATA_DIR\n`,
    );
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

function withoutBrokers(config: Config): Config {
  return { ...config, redisUrl: undefined, redisClusterNodes: undefined, natsServers: undefined };
}

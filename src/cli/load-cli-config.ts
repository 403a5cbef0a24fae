import { existsSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { ConfigError, loadConfig, unknownHopVariables } from '../config/load-config.js';

/**
 * Reads `.env` (if present) and the environment, validates, and on any problem prints one
 * line per bad variable and exits 2 before anything else happens.
 */
export function loadCliConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  for (const name of unknownHopVariables(process.env)) {
    process.stderr.write(`hop: warning: ${name} is not a hop variable and is ignored\n`);
  }
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) exitWithProblems(error.problems);
    throw error;
  }
}

/** Start-up failures that are the operator's to fix print as lines, not stack traces. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) exitWithProblems(error.problems);
  throw error;
}

export function exitWithProblems(problems: readonly string[]): never {
  for (const problem of problems) process.stderr.write(`hop: ${problem}\n`);
  process.exit(2);
}

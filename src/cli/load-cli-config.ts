import { existsSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { ConfigError, loadConfig } from '../config/load-config.js';

/**
 * Reads `.env` (if present) and the environment, validates, and on any problem prints one
 * line per bad variable and exits 2 before anything else happens.
 */
export function loadCliConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) exitWithProblems(error.problems);
    throw error;
  }
}

export function exitWithProblems(problems: readonly string[]): never {
  for (const problem of problems) process.stderr.write(`hop: ${problem}\n`);
  process.exit(2);
}

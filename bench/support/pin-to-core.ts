import { spawnSync } from 'node:child_process';

/** The core hop and the ceiling run on. */
export const SERVER_CORE = 0;
/** The core every load generator, and mixed's creator, runs on. */
export const LOAD_CORE = 1;

const hasTaskset = spawnSync('taskset', ['--version']).error === undefined;

/**
 * The command, run on one CPU core only when taskset exists: servers get SERVER_CORE and
 * every load generator LOAD_CORE, so the two never compete for a core and runs stay comparable.
 */
export function pin(core: number, command: readonly string[]): string[] {
  return hasTaskset ? ['taskset', '-c', String(core), ...command] : [...command];
}

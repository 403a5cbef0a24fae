import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: where `npm run build` and `npm start` run. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Written by `npm run build`, dated when the build began (scripts/build.ts). */
const STAMP = 'dist/.build-stamp';
export const BUILD_STAMP = join(ROOT, STAMP);
/** What a build reads: a change to any of these makes the build stale. */
const SOURCES = [
  'src',
  'console/src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'console/tsconfig.json',
  'scripts/build.ts',
  'scripts/build-console.ts',
];
/** What a build leaves: if one is gone, build whatever the stamp says. */
const OUTPUTS = ['dist/cli/hop.js', 'console/dist/index.html'];

/**
 * Why the build under `root` must run again, or null when it is current: an output is
 * missing, there is no stamp, or a source is newer than the stamp.
 */
export function staleBuildReason(root: string): string | null {
  const missing = OUTPUTS.find((output) => !existsSync(join(root, output)));
  if (missing !== undefined) return `${missing} is missing`;
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return `${STAMP} is missing`;
  const built = statSync(stamp).mtimeMs;
  const changed = SOURCES.find((source) => newestChange(join(root, source)) > built);
  return changed === undefined ? null : `${changed} changed since the last build`;
}

/** The newest modification time of a file, or of anything in a folder, in ms (0: absent). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

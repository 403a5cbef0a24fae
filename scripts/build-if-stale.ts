/**
 * `npm start`'s prestart: runs `npm run build` only when a source is newer than the last
 * build (dist/.build-stamp), so `npm start` runs compiled code and a start after no
 * change compiles nothing (ADR 0104). A fresh clone has no build: its first start builds.
 *
 *   node --import tsx scripts/build-if-stale.ts
 */
import { spawnSync } from 'node:child_process';
import { ROOT, staleBuildReason } from './build-stamp.js';

const reason = staleBuildReason(ROOT);
if (reason === null) {
  process.stdout.write('hop: the build is up to date\n');
} else {
  process.stdout.write(`hop: building (${reason})\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

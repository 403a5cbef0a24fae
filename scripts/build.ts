/**
 * `npm run build`: compiles hop into dist/ (TypeScript, then the SQL migrations beside
 * it) and the console into console/dist, then writes dist/.build-stamp dated when the
 * build began, which `npm start` reads to build again only after a source changed
 * (scripts/build-if-stale.ts, ADR 0104).
 *
 *   node --import tsx scripts/build.ts
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BUILD_STAMP, ROOT } from './build-stamp.js';

const MIGRATION_FOLDERS = ['sqlite/migrations', 'sqlite/click-migrations', 'postgres/migrations'];
const require = createRequire(import.meta.url);

const began = new Date();
rmSync(`${ROOT}/dist`, { recursive: true, force: true });
step([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
for (const folder of MIGRATION_FOLDERS) {
  cpSync(`${ROOT}/src/adapters/${folder}`, `${ROOT}/dist/adapters/${folder}`, { recursive: true });
}
step(['--import', 'tsx', 'scripts/build-console.ts']);
writeFileSync(BUILD_STAMP, `built ${began.toISOString()}\n`);
// Dated when the build began: a source saved while it ran is newer, and builds again.
utimesSync(BUILD_STAMP, began, began);

/** Runs node (this one) with `args` in the repository, or exits with its status. */
function step(args: readonly string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

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
import { build } from 'esbuild';
import { BUILD_STAMP, ROOT } from './build-stamp.js';

const MIGRATION_FOLDERS = [
  'sqlite/migrations',
  'sqlite/click-migrations',
  'postgres/migrations',
  'mariadb/migrations',
];

const began = new Date();
rmSync(`${ROOT}/dist`, { recursive: true, force: true });
// Each file transpiled on its own, types stripped, as it is laid out in src/: what tsc
// would emit, in a second instead of a quarter of a minute of CPU (the build runs at every
// `npm test` and in a test of `npm start`). Types are checked by `npm run typecheck`
// (tsconfig.json: verbatimModuleSyntax keeps every file transpilable on its own).
await build({
  entryPoints: ['src/**/*.ts'],
  absWorkingDir: ROOT,
  outdir: 'dist',
  outbase: 'src',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
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

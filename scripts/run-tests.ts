/**
 * The test command (`npm test`, `npm run test:<tier>`): builds hop once, then runs the test
 * files of the named tiers — concurrently, except the files that say they must run alone —
 * each file under a timeout, so a regression fails instead of hanging. Ends with one
 * `N passed, N failed` line for the whole run (two runner invocations print two summaries).
 *
 *   node --import tsx scripts/run-tests.ts [tier …]     (no tier: every tier but scale)
 *
 * A file runs alone when one of its first lines is `// runs alone: <why>`.
 *
 * The test files and what they import run as JavaScript transpiled beside their sources
 * (`foo.ts` → `foo.js`, git-ignored, removed at the end): loading hop's modules through
 * tsx's loader cost each test process about 1.3 s more CPU than loading them compiled,
 * and the suite is CPU-bound on CI's two cores (ADR 0139).
 */
import { spawn, spawnSync } from 'node:child_process';
import { build as transpile } from 'esbuild';
import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The tiers, in the order `npm test` runs them: quick and local first. */
const TIERS = ['unit', 'fuzz', 'contract', 'services', 'http', 'e2e'] as const;
/** Full-size volume checks, only on request (`npm run test:scale`). */
const SCALE_TIER = 'scale';
/** What a single file may take before it fails (the runner's --test-timeout is per file). */
const FILE_TIMEOUT_MS = positiveFromEnv('TEST_FILE_TIMEOUT_MS', 300_000);
/**
 * Files run at once: most wait on servers, child processes and folds, not on the CPU. On
 * this 2-core VM a fresh-clone CI run took 9:02 of tests at two per core, 8:31 at three
 * and 8:58 at four (2026-12-05, issue 23's suites added): three.
 */
const CONCURRENCY = positiveFromEnv('TEST_CONCURRENCY', availableParallelism() * 3);
const ALONE_MARK = /^\/\/ runs alone: \S/m;
/**
 * A file that takes a minute or more of its slot under load and is not in the end-to-end
 * tier (or is its longest): started with the first files, not when its tier's turn comes, so
 * it never runs on alone at the end while a core idles (longest first).
 */
const EARLY_MARK = /^\/\/ npm test starts it early: \S/m;

const root = new URL('../', import.meta.url);

/** A whole number from the environment; anything else stops the run (NaN would turn the timeout off). */
function positiveFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    process.stderr.write(
      `run-tests: ${name}=${JSON.stringify(text)} is not a whole number above 0\n`,
    );
    process.exit(2);
  }
  return value;
}

function main(): void {
  const asked = process.argv.slice(2);
  const known: readonly string[] = [...TIERS, SCALE_TIER];
  const unknown = asked.filter((tier) => !known.includes(tier));
  if (unknown.length > 0) {
    process.stderr.write(`run-tests: unknown tier ${unknown.join(', ')} (${known.join(', ')})\n`);
    process.exit(2);
  }
  const tiers = asked.length > 0 ? asked : TIERS;
  // Started slowest tier first (end-to-end files take a minute each, unit files a second):
  // the many short files then fill in around the long ones, instead of the long ones
  // starting last and running on alone at the end (CI's wall time, under its 10 minutes).
  const inTierOrder = [...tiers].reverse().flatMap(testFilesOf);
  const heads = new Map(inTierOrder.map((file) => [file, head(file)]));
  const marked = (mark: RegExp) => (file: string) => mark.test(heads.get(file) ?? '');
  const early = inTierOrder.filter(marked(EARLY_MARK));
  const files = [...early, ...inTierOrder.filter((file) => !early.includes(file))];
  const alone = files.filter(marked(ALONE_MARK));
  const together = files.filter((file) => !alone.includes(file));

  build();
  void (async () => {
    const transpiled = await transpileBeside();
    const removeTranspiled = () => {
      for (const file of transpiled) rmSync(file, { force: true });
    };
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      process.once(signal, () => {
        removeTranspiled();
        process.exit(code);
      });
    }
    const totals = { passed: 0, failed: 0 };
    let failed = false;
    try {
      for (const [group, concurrency] of [
        [together, CONCURRENCY],
        [alone, 1],
      ] as const) {
        if (group.length === 0) continue;
        process.stdout.write(`\n# ${group.length} files, ${concurrency} at a time\n`);
        const result = await runNodeTest(group.map(javaScriptOf), concurrency);
        totals.passed += result.passed;
        totals.failed += result.failed;
        failed ||= result.code !== 0;
      }
    } finally {
      removeTranspiled();
    }
    process.stdout.write(`\ntests: ${totals.passed} passed, ${totals.failed} failed\n`);
    process.exit(failed ? 1 : 0);
  })();
}

/** What the tests import: transpiled beside their sources, each file on its own. */
const TRANSPILED = [
  'src/**/*.ts',
  'test/**/*.ts',
  'scripts/**/*.ts',
  'bench/**/*.ts',
  'console/src/**/*.ts',
];

/**
 * Writes `x.js` (and its source map) beside every `x.ts` the tests may import, so that
 * test processes load JavaScript; returns the files written. Types were checked before
 * (`npm run typecheck`), as for the build (ADR 0138).
 */
async function transpileBeside(): Promise<string[]> {
  const started = Date.now();
  const result = await transpile({
    entryPoints: TRANSPILED,
    absWorkingDir: fileURLToPath(root),
    outdir: '.',
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const written = Object.keys(result.metafile.outputs).map((file) =>
    fileURLToPath(new URL(file, root)),
  );
  process.stdout.write(
    `# transpiled ${written.length / 2} files in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return written;
}

function javaScriptOf(file: string): string {
  return file.replace(/\.ts$/, '.js');
}

function testFilesOf(tier: string): string[] {
  const folder = new URL(`test/${tier}/`, root);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `test/${tier}/${name}`);
}

/** The first lines of a file, where its `runs alone` mark would be. */
function head(file: string): string {
  return readFileSync(new URL(file, root), 'utf8').split('\n', 12).join('\n');
}

/** End-to-end tests spawn the compiled CLI (test/support/hop-process.ts): built once here. */
function build(): void {
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('run-tests: the build failed\n');
    process.exit(1);
  }
  process.stdout.write(`# built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** Runs node's test runner over `files`, passing its output through and reading its counts. */
async function runNodeTest(
  files: readonly string[],
  concurrency: number,
): Promise<{ passed: number; failed: number; code: number }> {
  const child = spawn(
    process.execPath,
    [
      // Stack traces point into the TypeScript sources.
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${FILE_TIMEOUT_MS}`,
      '--test-reporter=spec',
      ...files,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const closed = once(child, 'close');
  const counts = { passed: 0, failed: 0 };
  for await (const line of createInterface({ input: child.stdout })) {
    process.stdout.write(`${line}\n`);
    // The spec reporter's summary: `ℹ pass 12`, `ℹ fail 0`, `ℹ cancelled 1`.
    const summary = /^ℹ (pass|fail|cancelled) (\d+)$/.exec(line);
    if (summary === null) continue;
    if (summary[1] === 'pass') counts.passed += Number(summary[2]);
    else counts.failed += Number(summary[2]);
  }
  const [status] = (await closed) as [number | null];
  return { ...counts, code: status ?? 1 };
}

main();

/**
 * `npm run bench [scenario ...]`: hop on its embedded default next to a bare node:http
 * ceiling, in the same run, driven by wrk from a separate process. Each scenario runs
 * alternately against hop and the ceiling; the table and the machine go to BENCHMARKS.md.
 *
 * Environment: BENCH_SECONDS (per round, default 10), BENCH_ROUNDS (default 2),
 * BENCH_UNIFORM_LINKS (default 1000000), BENCH_CONNECTIONS (default 50).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const UNIFORM_LINKS = Number(process.env['BENCH_UNIFORM_LINKS'] ?? 1_000_000);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const HOT_LINKS = 10_000;
const FIXED_RATE = 10_000;
const MIXED_CREATES_PER_SECOND = 100;
const HOP_PORT = 18_580;
const CEILING_PORT = 18_581;
const ADMIN_KEY = 'hop_bench_admin_key_0123456789abcdef';
const ALL = ['hot', 'uniform', 'notfound', 'fixed-rate', 'mixed'] as const;
type Scenario = (typeof ALL)[number];

interface Result {
  rps: number;
  p50: number;
  p80: number;
  p99: number;
  errors: number;
}

const requested = process.argv.slice(2);
for (const name of requested) {
  if (!(ALL as readonly string[]).includes(name))
    throw new Error(`unknown scenario ${name}; one of ${ALL.join(', ')}`);
}
const scenarios: Scenario[] = requested.length === 0 ? [...ALL] : (requested as Scenario[]);
if (spawnSync('wrk', ['--version']).error !== undefined) {
  throw new Error('wrk is needed for the benchmark: apt-get install -y wrk');
}
const pin = (core: number, command: string[]) =>
  spawnSync('taskset', ['--version']).error === undefined
    ? ['taskset', '-c', String(core), ...command]
    : command;

const dir = mkdtempSync(join(tmpdir(), 'hop-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  ...process.env,
  HOP_DATA_DIR: dir,
  HOP_HOST: '127.0.0.1',
  HOP_PORT: String(HOP_PORT),
  HOP_LOG_LEVEL: 'info',
  HOP_CREATE_RATE: 'off',
  HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  HOP_L1_MAX_ENTRIES: '100000',
};

// 1. Seed, as an operator would, with the CLI.
const needed = scenarios.some((s) => s === 'uniform') ? UNIFORM_LINKS : HOT_LINKS;
const codesFile = join(dir, 'codes.txt');
const seedStarted = Date.now();
execFileSync(
  process.execPath,
  [
    '--import',
    'tsx',
    'src/cli/hop.ts',
    'links',
    'seed',
    '--count',
    String(needed),
    '--codes',
    codesFile,
  ],
  {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const seedSeconds = (Date.now() - seedStarted) / 1000;
const codes = readFileSync(codesFile, 'utf8').trim().split('\n');

// 2. Request paths per scenario.
const hotCodes = codes.slice(0, HOT_LINKS);
const zipf = makeZipf(hotCodes.length, 1.1);
const pathFiles: Record<string, string> = {
  hot: writePaths('hot', () => `/${hotCodes[zipf()]}`),
  uniform: writePaths('uniform', () => `/${codes[Math.floor(Math.random() * codes.length)]}`),
  notfound: writePaths('notfound', () => `/${randomCode()}`),
};

// 3. Start both servers, pinned to the first core; wrk gets the other one.
const hop = await startServer(
  pin(0, [process.execPath, '--import', 'tsx', 'src/cli/hop.ts', 'serve']),
  /hop listening/,
);
await startServer(
  pin(0, [
    process.execPath,
    '--import',
    'tsx',
    'bench/ceiling-server.ts',
    codesFile,
    String(CEILING_PORT),
  ]),
  /ceiling listening/,
);

// 4. Run every scenario alternately against hop and the ceiling.
const rows: { scenario: Scenario; hop: Result; ceiling: Result }[] = [];
for (const scenario of scenarios) {
  const paths = pathFiles[
    scenario === 'fixed-rate' || scenario === 'mixed' ? 'hot' : scenario
  ] as string;
  const pace =
    scenario === 'fixed-rate' || scenario === 'mixed' ? (CONNECTIONS * 1000) / FIXED_RATE : 0;
  // Warm both: JIT, L1 (hot), page cache (uniform).
  wrk(HOP_PORT, paths, pace, 3);
  wrk(CEILING_PORT, paths, pace, 3);
  const hopRuns: Result[] = [];
  const ceilingRuns: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const creator = scenario === 'mixed' ? startCreates() : null;
    hopRuns.push(wrk(HOP_PORT, paths, pace, SECONDS));
    creator?.kill('SIGTERM');
    ceilingRuns.push(wrk(CEILING_PORT, paths, pace, SECONDS));
  }
  rows.push({ scenario, hop: mean(hopRuns), ceiling: mean(ceilingRuns) });
  process.stderr.write(`${scenario} done\n`);
}
const rssMb = readRssMb(hop.pid ?? 0);

// 5. Report.
const header = '| scenario | server | req/s | p50 ms | p80 ms | p99 ms | errors | hop/ceiling |';
const lines = [header, '|---|---|---:|---:|---:|---:|---:|---:|'];
for (const row of rows) {
  const ratio = `${((100 * row.hop.rps) / row.ceiling.rps).toFixed(0)}%`;
  lines.push(format(row.scenario, 'hop', row.hop, ratio));
  lines.push(format(row.scenario, 'ceiling', row.ceiling, ''));
}
const cpu = cpus()[0]?.model ?? 'unknown cpu';
const machine = `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const report = [
  `## ${new Date().toISOString()}`,
  '',
  `Command: \`npm run bench${requested.length > 0 ? ` -- ${requested.join(' ')}` : ''}\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_CONNECTIONS=${CONNECTIONS}, ${needed} links seeded in ${seedSeconds.toFixed(1)} s)`,
  `Machine: ${machine}. Servers pinned to core 0, wrk (1 thread) to core 1. fixed-rate and mixed pace each connection to offer ${FIXED_RATE} req/s in all (wrk is closed-loop: latency excludes the pacing wait). mixed adds ${MIXED_CREATES_PER_SECOND} creates/s through the API against hop.`,
  `hop resident memory at the end: ${rssMb.toFixed(0)} MB.`,
  '',
  ...lines,
  '',
].join('\n');
process.stdout.write(`\n${report}\n`);
const benchFile = join(ROOT, 'BENCHMARKS.md');
if (!existsSync(benchFile))
  writeFileSync(benchFile, '# Benchmarks\n\nAppended by `npm run bench`; newest last.\n\n');
appendFileSync(benchFile, `${report}\n`);
process.exit(0);

function wrk(port: number, paths: string, paceMs: number, seconds: number): Result {
  const output = execFileSync(
    pin(1, ['wrk'])[0] as string,
    [
      ...pin(1, ['wrk']).slice(1),
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      '-s',
      join(ROOT, 'bench/paths.lua'),
      `http://127.0.0.1:${port}`,
      '--',
      paths,
      String(paceMs),
    ],
    { encoding: 'utf8' },
  );
  const json = output.split('\n').find((line) => line.startsWith('{"requests"'));
  if (json === undefined) throw new Error(`wrk printed no result:\n${output}`);
  const parsed = JSON.parse(json) as Result & { errors: number };
  return {
    rps: parsed.rps,
    p50: parsed.p50,
    p80: parsed.p80,
    p99: parsed.p99,
    errors: parsed.errors,
  };
}

function startServer(command: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve(child);
    });
    child.on('exit', (code) => {
      reject(new Error(`${command.join(' ')} exited with ${code}`));
    });
  });
}

/** 100 creates/s through the public API, from its own process, for the `mixed` scenario. */
function startCreates(): ChildProcess {
  const script = `
    let i = 0;
    setInterval(() => {
      fetch('http://127.0.0.1:${HOP_PORT}/v1/links', {
        method: 'POST',
        headers: { authorization: 'Bearer ${ADMIN_KEY}', 'content-type': 'application/json' },
        body: JSON.stringify({ destination: 'https://mixed.example/' + i++ }),
      }).then((r) => r.arrayBuffer(), () => undefined);
    }, ${1000 / MIXED_CREATES_PER_SECOND});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  children.push(child);
  return child;
}

function writePaths(name: string, next: () => string): string {
  const file = join(dir, `${name}.paths`);
  writeFileSync(file, Array.from({ length: 100_000 }, next).join('\n') + '\n');
  return file;
}

/** Zipf(s) over [0, n): most picks land on the first few indexes. */
function makeZipf(n: number, s: number): () => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cdf[k] = total += 1 / Math.pow(k + 1, s);
  for (let k = 0; k < n; k++) (cdf[k] as number) /= total;
  return () => {
    const u = Math.random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function randomCode(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let code = '';
  for (let i = 0; i < 7; i++) code += alphabet.charAt(Math.floor(Math.random() * 62));
  return code;
}

function mean(results: Result[]): Result {
  const avg = (pick: (r: Result) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    rps: avg((r) => r.rps),
    p50: avg((r) => r.p50),
    p80: avg((r) => r.p80),
    p99: avg((r) => r.p99),
    errors: avg((r) => r.errors),
  };
}

function format(scenario: string, server: string, r: Result, ratio: string): string {
  return `| ${scenario} | ${server} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p80.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors.toFixed(0)} | ${ratio} |`;
}

function readRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

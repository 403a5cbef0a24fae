import { cpus } from 'node:os';
import { autocannonVersion } from './autocannon.js';
import { BenchError } from './bench-error.js';
import { BENCH_TAG, prepareBenchLinks } from './bench-links.js';
import { callHop } from './hop-client.js';
import { readCodesFile } from './read-codes-file.js';
import { runLoad, type LatencySummary } from './run-load.js';
import { makeScenario, type ScenarioName } from './scenarios.js';

export interface BenchOptions {
  /** Base URL of the running hop, without a trailing slash. */
  readonly url: string;
  readonly key: string | undefined;
  /** Links to create or reuse when no codes file is given. */
  readonly links: number;
  readonly codesFile: string | undefined;
  readonly durationMs: number;
  readonly warmupMs: number;
  readonly connections: number;
  readonly scenarios: readonly ScenarioName[];
}

export interface ScenarioResult {
  readonly name: ScenarioName;
  readonly about: string;
  /** Requests answered, whatever the status. */
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly latencyMs: LatencySummary | null;
  readonly statuses: ReadonlyMap<number, number>;
  /** Unexpected answers (by status) and requests that got none (by reason). */
  readonly errors: ReadonlyMap<string, number>;
  readonly errorCount: number;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly url: string;
  readonly codes: {
    readonly count: number;
    /** The --codes file, or null for links tagged BENCH_TAG through the API. */
    readonly file: string | null;
    readonly reused: number;
    readonly created: number;
  };
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** The machine the load came from: client-side latency depends on it. */
  readonly client: { readonly cpus: number; readonly cpuModel: string; readonly node: string };
  readonly driver: string;
  readonly scenarios: readonly ScenarioResult[];
}

/** Finds codes to ask for, then measures each scenario after a warm-up. */
export async function runBench(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const codes = await findCodes(options, log);
  await probeCodes(options.url, codes.codes, codes.file);

  const scenarios: ScenarioResult[] = [];
  for (const name of options.scenarios) {
    const scenario = makeScenario(name, codes.codes);
    const target = {
      origin: options.url,
      connections: options.connections,
      nextPath: scenario.nextPath,
    };
    if (options.warmupMs > 0) {
      log(`${name}: warming up for ${options.warmupMs / 1000} s`);
      await runLoad({ ...target, durationMs: options.warmupMs });
    }
    log(`${name}: measuring for ${options.durationMs / 1000} s (${scenario.about})`);
    const run = await runLoad({ ...target, durationMs: options.durationMs });
    const errors = new Map(run.failures);
    for (const [status, count] of run.statuses) {
      if (!scenario.isExpected(status)) errors.set(`${status}`, count);
    }
    scenarios.push({
      name,
      about: scenario.about,
      requests: run.requests,
      seconds: run.seconds,
      rps: run.seconds > 0 ? run.requests / run.seconds : 0,
      latencyMs: run.latencyMs,
      statuses: run.statuses,
      errors,
      errorCount: [...errors.values()].reduce((sum, count) => sum + count, 0),
    });
  }
  const cpuList = cpus();
  return {
    startedAt,
    url: options.url,
    codes: {
      count: codes.codes.length,
      file: codes.file,
      reused: codes.reused,
      created: codes.created,
    },
    connections: options.connections,
    durationSeconds: options.durationMs / 1000,
    warmupSeconds: options.warmupMs / 1000,
    client: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model ?? 'unknown',
      node: process.version,
    },
    driver: `autocannon ${autocannonVersion()}`,
    scenarios,
  };
}

interface FoundCodes {
  readonly codes: readonly string[];
  readonly file: string | null;
  readonly reused: number;
  readonly created: number;
}

async function findCodes(options: BenchOptions, log: (line: string) => void): Promise<FoundCodes> {
  const { codesFile: file, key } = options;
  if (file !== undefined) {
    const codes = readCodesFile(file); // first: its problems need no hop to be found
    await checkHealthy(options.url);
    return { codes, file, reused: 0, created: 0 };
  }
  if (key === undefined) {
    throw new BenchError(
      '--key is needed to create the links to load (or give --codes FILE, e.g. one ' +
        'written by `hop links seed --codes FILE`)',
    );
  }
  await checkHealthy(options.url);
  const links = await prepareBenchLinks(options.url, key, options.links, log);
  log(
    `${links.codes.length} links tagged ${BENCH_TAG} (${links.reused} reused, ${links.created} created)`,
  );
  return { ...links, file: null };
}

/** A hop answers /healthz with 200; anything else at that URL is not one (or not well). */
async function checkHealthy(url: string): Promise<void> {
  const response = await callHop(url, '/healthz');
  await response.body?.cancel();
  if (response.status !== 200) {
    throw new BenchError(`${url}/healthz answered ${response.status}, not 200: is this a hop?`);
  }
}

/** The first, middle and last codes must redirect, or the codes belong to another hop. */
async function probeCodes(
  url: string,
  codes: readonly string[],
  file: string | null,
): Promise<void> {
  const picks = new Set([0, Math.floor(codes.length / 2), codes.length - 1]);
  for (const index of picks) {
    const code = codes[index] as string;
    const response = await callHop(url, `/${code}`);
    await response.body?.cancel();
    if (response.status < 300 || response.status > 399) {
      const origin = file === null ? 'a bench link' : `from ${file}`;
      throw new BenchError(
        `${url}/${code} (${origin}) answered ${response.status}, not a redirect: ` +
          (file === null ? 'was it disabled or deleted?' : 'were these codes made for this hop?'),
      );
    }
  }
}

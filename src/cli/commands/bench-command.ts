import { Option, type Command } from 'commander';
import { BenchError } from '../bench/bench-error.js';
import { BENCH_TAG } from '../bench/bench-links.js';
import { durationParser, parseScenarios, parseUrlOption } from '../bench/bench-option-parsers.js';
import { SCENARIOS, type ScenarioName } from '../bench/scenarios.js';
import { wholeNumberParser } from '../whole-number-parser.js';

interface BenchCommandOptions {
  url: string;
  key?: string;
  links: number;
  codes?: string;
  duration: number;
  warmup: number;
  connections: number;
  scenarios: ScenarioName[];
  json: boolean;
}

export function addBenchCommand(program: Command): void {
  program
    .command('bench')
    .description(
      'drive redirect load at a running hop (hot, uniform, 404) and compare with the SLO',
    )
    .addOption(
      new Option('--url <url>', 'base URL of the running hop')
        .default('http://127.0.0.1:8080')
        .argParser(parseUrlOption),
    )
    .option('--key <key>', 'an API key of that hop, to create the bench links (not with --codes)')
    .addOption(
      new Option('--links <n>', `links tagged ${BENCH_TAG} to load, reused or created (1-100000)`)
        .default(1000)
        .argParser(wholeNumberParser(1, 100_000)),
    )
    .addOption(
      new Option('--codes <file>', 'load these codes instead, one a line').conflicts('links'),
    )
    .addOption(
      new Option('--duration <time>', 'how long each scenario is measured (1s-1h)')
        .default(10_000, '10s')
        .argParser(durationParser(1000, 3_600_000)),
    )
    .addOption(
      new Option('--warmup <time>', 'load before each measurement, not counted (0-10m)')
        .default(2000, '2s')
        .argParser(durationParser(0, 600_000)),
    )
    .addOption(
      new Option(
        '--connections <n>',
        'keep-alive connections, each one request at a time (1-10000)',
      )
        .default(50)
        .argParser(wholeNumberParser(1, 10_000)),
    )
    .addOption(
      new Option('--scenarios <list>', `which, in order: ${SCENARIOS.join(',')}`)
        .default([...SCENARIOS], SCENARIOS.join(','))
        .argParser(parseScenarios),
    )
    .option('--json', 'print one JSON object instead of the table', false)
    .addHelpText(
      'after',
      `
Scenarios:
  hot       Zipf(1.1) over 1% of the codes (at least 10): what L1 answers
  uniform   every code in turn: with many codes, the store answers most
  404       a new random 7-character code each time: the unknown-code path
A 3xx is success for hot and uniform and a 404 for 404; other answers and requests that
got none are errors, printed by kind, and make the exit status 1 (an SLO miss does not).

Codes: without --codes, hop bench loads --links links tagged ${BENCH_TAG}, reusing those
an earlier run left and creating the rest with --key (POST /v1/links; an admin key is not
rate limited). They expire after 7 days; list them with GET /v1/links?tag=${BENCH_TAG}.
For a store-sized uniform, seed first and pass the codes file:
  hop links seed --count 1000000 --codes /tmp/hop.codes

Latency is measured here, client-side: from writing each request to reading its whole
answer, so it includes this process's own time. SPEC §1's figures are server-side: on a
small machine shared by hop and the load, expect these to read higher.

Examples:
  $ hop bench --url http://127.0.0.1:8080 --key "$HOP_KEY"
  $ hop bench --codes /tmp/hop.codes --scenarios uniform --duration 30s --connections 100
  $ hop bench --key "$HOP_KEY" --duration 5s --json > bench.json`,
    )
    .action(async (options: BenchCommandOptions) => {
      // The load generator (autocannon) loads only for this command.
      const [{ runBench }, { formatBenchJson, formatBenchTable }] = await Promise.all([
        import('../bench/run-bench.js'),
        import('../bench/format-bench-report.js'),
      ]);
      try {
        const report = await runBench(
          {
            url: options.url,
            key: options.key,
            links: options.links,
            codesFile: options.codes,
            durationMs: options.duration,
            warmupMs: options.warmup,
            connections: options.connections,
            scenarios: options.scenarios,
          },
          (line) => process.stderr.write(`hop bench: ${line}\n`),
        );
        process.stdout.write(options.json ? formatBenchJson(report) : formatBenchTable(report));
        const errors = report.scenarios.reduce((sum, result) => sum + result.errorCount, 0);
        if (errors > 0) {
          process.stderr.write(`hop: ${errors} requests did not get the answer expected\n`);
          process.exitCode = 1;
        }
      } catch (error) {
        if (!(error instanceof BenchError)) throw error;
        process.stderr.write(`hop: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
}

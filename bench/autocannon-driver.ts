/**
 * The closed-loop driver used when wrk is not installed: autocannon, N connections for D
 * seconds, cycling through a paths file like paths.lua, printing paths.lua's JSON line.
 * autocannon's own result has no p80, so every response time is kept and the
 * percentiles are computed exactly here.
 *
 *   node --import tsx bench/autocannon-driver.ts --url http://127.0.0.1:18580 \
 *     --paths hot.paths --connections 50 --seconds 10 [--header 'Name: value' ...]
 *
 * Every --header goes with every request, as wrk's -H does.
 */
import { autocannon } from '../src/cli/bench/autocannon.js';
import { parseDriverArgs } from './support/driver-args.js';
import { formatReport, isStatusError, reportOf } from './support/driver-report.js';
import { LatencyLog } from './support/latency-log.js';
import { cycle, readPaths } from './support/paths-file.js';

const args = parseDriverArgs(
  "autocannon-driver --url URL --paths FILE [--connections N] [--seconds S] [--header 'Name: value' ...]",
  process.argv.slice(2),
);
const nextPath = cycle(readPaths(args.pathsFile));
// A guess at the count (well above the ceiling's rate here); the log grows past it.
const latencies = new LatencyLog(40_000 * args.seconds);
let non2xx3xx = 0;

const started = performance.now();
const instance = autocannon(
  {
    url: args.url.origin,
    connections: args.connections,
    duration: args.seconds,
    pipelining: 1,
    // Defaults of every request, setupRequest's included (autocannon merges them in).
    headers: { ...args.headers },
    // One dynamic request: autocannon rebuilds it before every send, with the next path.
    requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  },
  (error, result) => {
    if (error !== null) throw error;
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `${formatReport(reportOf(latencies.recorded(), seconds, result.errors, non2xx3xx))}\n`,
    );
  },
);
instance.on('response', (_client, status, _bytes, responseMs) => {
  latencies.record(responseMs);
  if (isStatusError(status)) non2xx3xx++;
});

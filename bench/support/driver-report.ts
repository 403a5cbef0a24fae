import { percentiles } from './latency-log.js';

/**
 * What every load driver prints as its last line, one JSON object: bench/paths.lua (wrk),
 * bench/autocannon-driver.ts and bench/open-loop.ts. Latencies in ms.
 */
export interface DriverReport {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p80: number;
  readonly p99: number;
  /** Socket errors and timeouts: connect, read, write, no answer in time. */
  readonly errors: number;
  /** Responses with status > 399, wrk's `summary.errors.status` (so 404s count here). */
  readonly non2xx3xx: number;
  /** Open loop only: the rate offered, req/s. */
  readonly offered?: number;
  /** Open loop only: requests sent more than 1 ms after their intended time. */
  readonly late?: number;
  /** Open loop with creates only: links created (201), and creates that failed. */
  readonly creates?: number;
  readonly createErrors?: number;
}

/** wrk's rule for `summary.errors.status`, kept by the other drivers so figures compare. */
export function isStatusError(status: number): boolean {
  return status > 399;
}

/** A report from every answered request's latency (ms) over `seconds`. */
export function reportOf(
  latencies: Float64Array,
  seconds: number,
  errors: number,
  non2xx3xx: number,
): DriverReport {
  const [p50 = 0, p80 = 0, p99 = 0] = percentiles(latencies, [50, 80, 99]);
  const requests = latencies.length;
  return { requests, rps: seconds > 0 ? requests / seconds : 0, p50, p80, p99, errors, non2xx3xx };
}

/** The same line, with the same decimals, as paths.lua prints (plus the open-loop fields). */
export function formatReport(report: DriverReport): string {
  const creates =
    report.creates === undefined
      ? ''
      : `,"creates":${report.creates},"createErrors":${report.createErrors ?? 0}`;
  const openLoop =
    report.offered === undefined
      ? ''
      : `,"offered":${report.offered},"late":${report.late ?? 0}${creates}`;
  return (
    `{"requests":${report.requests},"rps":${report.rps.toFixed(1)},` +
    `"p50":${report.p50.toFixed(3)},"p80":${report.p80.toFixed(3)},"p99":${report.p99.toFixed(3)},` +
    `"errors":${report.errors},"non2xx3xx":${report.non2xx3xx}${openLoop}}`
  );
}

/** Finds the report line in a driver's output. */
export function parseReport(output: string, driver: string): DriverReport {
  const line = output.split('\n').find((text) => text.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`${driver} printed no result:\n${output}`);
  return JSON.parse(line) as DriverReport;
}

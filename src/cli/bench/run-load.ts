import { createHistogram } from 'node:perf_hooks';
import { autocannon } from './autocannon.js';

/** A request unanswered this long counts as an error (a timeout), in seconds. */
const REQUEST_TIMEOUT_SECONDS = 10;

export interface LoadTarget {
  /** `http://host:port` of the hop. */
  readonly origin: string;
  readonly connections: number;
  readonly durationMs: number;
  /** The path of the next request, called before every request. */
  readonly nextPath: () => string;
}

/** Latencies in ms, from a histogram of microseconds (3 significant digits). */
export interface LatencySummary {
  readonly p50: number;
  readonly p80: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

export interface LoadRun {
  /** Requests answered, whatever the status. */
  readonly requests: number;
  readonly seconds: number;
  /** null when nothing was answered. */
  readonly latencyMs: LatencySummary | null;
  /** Answers by status code. */
  readonly statuses: ReadonlyMap<number, number>;
  /** Requests that got no answer, by reason (ECONNREFUSED, ECONNRESET, request timed out). */
  readonly failures: ReadonlyMap<string, number>;
}

/**
 * A closed loop: `connections` keep-alive connections, each sending its next GET as soon
 * as the last is answered, for `durationMs`. Redirects are never followed. Latency is
 * autocannon's per-response time (hrtime, from writing the request to parsing the whole
 * answer), kept in our own histogram: autocannon's own rounds to whole milliseconds and
 * has no p80.
 */
export function runLoad(target: LoadTarget): Promise<LoadRun> {
  const histogramUs = createHistogram();
  const statuses = new Map<number, number>();
  const failures = new Map<string, number>();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.origin,
        connections: target.connections,
        duration: target.durationMs / 1000,
        pipelining: 1,
        timeout: REQUEST_TIMEOUT_SECONDS,
        // One dynamic request: autocannon rebuilds it before every send, with the next path.
        requests: [
          { method: 'GET', setupRequest: (request) => ({ ...request, path: target.nextPath() }) },
        ],
      },
      (error) => {
        if (error !== null) {
          reject(error);
          return;
        }
        resolve({
          requests: histogramUs.count,
          seconds: (performance.now() - started) / 1000,
          latencyMs: histogramUs.count === 0 ? null : summarise(histogramUs),
          statuses,
          failures,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseMs) => {
      histogramUs.record(Math.max(1, Math.round(responseMs * 1000)));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    instance.on('reqError', (error) => {
      const reason = error.code ?? error.message;
      failures.set(reason, (failures.get(reason) ?? 0) + 1);
    });
  });
}

function summarise(histogramUs: ReturnType<typeof createHistogram>): LatencySummary {
  const ms = (us: number) => us / 1000;
  return {
    p50: ms(histogramUs.percentile(50)),
    p80: ms(histogramUs.percentile(80)),
    p99: ms(histogramUs.percentile(99)),
    mean: ms(histogramUs.mean),
    max: ms(histogramUs.max),
  };
}

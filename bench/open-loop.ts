/**
 * Open-loop load at a fixed rate, like wrk2: request i is due at start + i/R, whatever
 * happened to the ones before it, and its latency runs from that intended time to the end
 * of its response. A server that stalls therefore shows in the percentiles, which a
 * closed-loop driver hides (coordinated omission: it stops sending while the server is
 * stuck). Requests go round-robin to C keep-alive connections, one in flight each.
 *
 *   node --import tsx bench/open-loop.ts --url http://127.0.0.1:18580 --paths hot.paths \
 *     --rate 10000 --connections 50 --seconds 10 [--header 'Name: value' ...]
 *
 * Every --header goes with every load request (not the creates), as wrk's -H does.
 *
 * With --creates-per-second N --create-key KEY it also POSTs N links a second through the
 * API on a connection of its own (the `mixed` scenario), from this same process: a second
 * process on this core would take the CPU this one spins on and make its sends late.
 *
 * A first second at the same rate warms up and is not counted. Prints paths.lua's JSON
 * line plus "offered" (R) and "late": how many counted requests left more than 1 ms after
 * their intended time, because this process fell behind or because their connection was
 * still waiting for its previous answer.
 */
import { parseDriverArgs } from './support/driver-args.js';
import { formatReport, isStatusError, reportOf } from './support/driver-report.js';
import { KeepAliveConnection, type ConnectionEvents } from './support/keep-alive-connection.js';
import { cycle, readPaths } from './support/paths-file.js';

/** How long answers may still come after the last request was due; later is an error. */
const DRAIN_MS = 5_000;
/** A send later than this after its intended time counts as late. */
const LATE_MS = 1;
const WARMUP_SECONDS = 1;
/** The longest sleep between two looks at the sockets (see the send loop). */
const SLEEP_MS = 0.1;
/** Shorter waits than this are not worth a futex call. */
const MIN_SLEEP_MS = 0.02;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const args = parseDriverArgs(
  "open-loop --url URL --paths FILE --rate R [--connections N] [--seconds S] [--header 'Name: value' ...]",
  process.argv.slice(2),
);
if (args.rate === undefined) throw new Error('open-loop needs --rate');
const rate = args.rate;
const host = args.url.hostname;
const port = Number(args.url.port || 80);
// Every request made once up front: sending one is a single socket write, nothing more.
const extraHeaders = Object.entries(args.headers)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
const nextRequest = cycle(
  readPaths(args.pathsFile).map((path) =>
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${args.url.host}\r\n${extraHeaders}\r\n`, 'latin1'),
  ),
);

const intervalMs = 1000 / rate;
/**
 * The schedule starts with WARMUP_SECONDS at the same rate whose answers are not counted:
 * this process is fresh for every run, and its first few hundred ms (JIT) send late.
 */
const warmupCount = Math.round(rate * WARMUP_SECONDS);
const total = warmupCount + Math.round(rate * args.seconds);
/*
 * Everything is kept per request number, the same way in warm-up and measurement, and
 * only split at the end: a hot path that changed behaviour when measurement begins would
 * be deoptimized right then and send late for the next few hundred ms.
 */
const latencyMs = new Float64Array(total).fill(Number.NaN); // NaN: never answered
const statuses = new Uint16Array(total);
const sentLate = new Uint8Array(total);
let settled = 0;
let lastAnsweredAt = 0;
let startedAt = 0;
let finish: () => void = () => undefined;
const intendedAt = (request: number) => startedAt + request * intervalMs;

const events: ConnectionEvents = {
  sent(request, sentAt) {
    if (sentAt - intendedAt(request) > LATE_MS) sentLate[request] = 1;
  },
  answered(request, status, answeredAt) {
    latencyMs[request] = answeredAt - intendedAt(request);
    statuses[request] = status;
    lastAnsweredAt = answeredAt;
    if (++settled === total) finish();
  },
  failed() {
    if (++settled === total) finish();
  },
};
const connections = Array.from(
  { length: args.connections },
  () => new KeepAliveConnection(host, port, events),
);
await Promise.all(connections.map((connection) => connection.ready()));

// The creates beside the load: their own schedule and connection, counted apart.
const createIntervalMs = args.creates === undefined ? 0 : 1000 / args.creates.perSecond;
const createTally = { answered: 0, failed: 0, notCreated: 0 };
const creator =
  args.creates === undefined
    ? null
    : new KeepAliveConnection(host, port, {
        sent: () => undefined,
        answered(_request, status) {
          createTally.answered++;
          if (status !== 201) createTally.notCreated++;
        },
        failed() {
          createTally.failed++;
        },
      });
await creator?.ready();
const createRequest = (n: number): Buffer => {
  const body = JSON.stringify({ destination: `https://mixed.example/${Date.now()}/${n}` });
  return Buffer.from(
    `POST /v1/links HTTP/1.1\r\nHost: ${args.url.host}\r\nAuthorization: Bearer ${args.creates?.key ?? ''}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    'latin1',
  );
};

startedAt = performance.now();
await new Promise<void>((resolve) => {
  finish = resolve;
  let due = 0;
  let createDue = 0;
  // A setImmediate loop, not timers: 1 ms timer granularity would add up to a millisecond
  // of latency that is not the server's. Between sends it sleeps (Atomics.wait, a futex
  // with a timeout), at most SLEEP_MS at a time, rather than spin: the paired scenarios run
  // two of these on the load core, and two spinners take turns by scheduler slices of
  // milliseconds, each one's sends and reads late by a slice (ADR 0143). An answer that
  // comes while it sleeps is read when it wakes: at most SLEEP_MS added to its latency.
  const tick = () => {
    const now = performance.now();
    for (; due < total && intendedAt(due) <= now; due++) {
      (connections[due % connections.length] as KeepAliveConnection).send(due, nextRequest());
    }
    for (; creator !== null && startedAt + createDue * createIntervalMs <= now; createDue++) {
      creator.send(createDue, createRequest(createDue));
    }
    if (due >= total) {
      setTimeout(resolve, DRAIN_MS).unref();
      return;
    }
    const idleMs = intendedAt(due) - performance.now();
    if (idleMs > MIN_SLEEP_MS) Atomics.wait(sleeper, 0, 0, Math.min(idleMs, SLEEP_MS));
    setImmediate(tick);
  };
  tick();
});
for (const connection of connections) connection.close();
creator?.close();

// The measured part: answered requests' latencies; the unanswered (lost, or still waiting
// after the drain) count as errors.
const measured = latencyMs.subarray(warmupCount);
const answered = measured.filter((ms) => !Number.isNaN(ms));
const measuredStatuses = statuses.subarray(warmupCount);
const measuredFrom = intendedAt(warmupCount);
const seconds =
  (Math.max(lastAnsweredAt, measuredFrom + args.seconds * 1000) - measuredFrom) / 1000;
const report = {
  ...reportOf(
    answered,
    seconds,
    measured.length - answered.length,
    measuredStatuses.filter(isStatusError).length,
  ),
  offered: rate,
  late: sentLate.subarray(warmupCount).reduce((sum, flag) => sum + flag, 0),
};
const createReport =
  args.creates === undefined
    ? {}
    : {
        creates: createTally.answered - createTally.notCreated,
        createErrors: createTally.notCreated + createTally.failed,
      };
process.stdout.write(`${formatReport({ ...report, ...createReport })}\n`);

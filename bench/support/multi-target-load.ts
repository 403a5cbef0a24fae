/**
 * One load generator for several servers at once (bench/regions-bench.ts: six hops in six
 * namespaces), so that every server's window is the same window and one process sends to
 * all of them: six copies of bench/open-loop.ts would each spin on a 2-vCPU machine and
 * take turns on the cores, their sends late by a scheduler slice. It spins only in the last
 * SPIN_MS before a send and sleeps in between (targets of one rate share one schedule).
 *
 *   node --import tsx bench/support/multi-target-load.ts '<LoadPlan as JSON>'
 *
 * - redirects: open loop, bench/open-loop.ts's method: request i to a target is due at
 *   start + i/rate whatever happened before, round-robin over its connections (one request
 *   in flight each); its latency runs from that intended time to the end of its answer, so
 *   a stall shows. The first `warmupSeconds` of requests are sent on the same schedule and
 *   not counted.
 * - creates: closed loop: each connection POSTs /v1/links (a new destination each time,
 *   `key` as the bearer) as soon as its previous answer is read; latency from its send.
 *   Answers read in the `warmupSeconds` before the window are not counted.
 *
 * Prints one JSON line, `{"reports":{"<label>":TargetReport,…}}`.
 */
import { formatReport, isStatusError, reportOf, type DriverReport } from './driver-report.js';
import { KeepAliveConnection, type ConnectionEvents } from './keep-alive-connection.js';
import { cycle, readPaths } from './paths-file.js';

interface RedirectTarget {
  readonly kind: 'redirects';
  readonly label: string;
  /** http://host:port */
  readonly url: string;
  readonly pathsFile: string;
  /** Requests per second offered. */
  readonly rate: number;
  readonly connections: number;
}

interface CreateTarget {
  readonly kind: 'creates';
  readonly label: string;
  readonly url: string;
  /** Bearer key of the creates (an admin key: no create rate limit applies). */
  readonly key: string;
  readonly connections: number;
  /** Part of every destination, so two runs never create the same one. */
  readonly tag: string;
}

export type LoadTarget = RedirectTarget | CreateTarget;

export interface LoadPlan {
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly targets: readonly LoadTarget[];
}

/** A driver report plus every status answered in the window, by code. */
export type TargetReport = DriverReport & { readonly statuses: Readonly<Record<string, number>> };

/** How long answers may still come after the last redirect was due; later is an error. */
const DRAIN_MS = 5_000;
/** A send later than this after its intended time counts as late (open-loop.ts's rule). */
const LATE_MS = 1;
/**
 * How long before a request is due the loop stops sleeping and spins: a timer fires up to
 * about a millisecond late, so it is set to wake this much early. Targets of one rate share
 * one schedule, so at 200/s there are 5 ms between sends to sleep through.
 */
const SPIN_MS = 2;

/** One target's running tally; `finish` reports once the run is over. */
interface Tally {
  readonly label: string;
  /** Resolves once every connection is up. */
  ready(): Promise<void>;
  /** Starts sending; `end` is when the measured window closes (performance.now() ms). */
  start(measuredFrom: number, end: number): void;
  /** Open loop: sends whatever is due by `now`; true while some is still to come. */
  tick(now: number): boolean;
  /** Open loop: when its next request is due (performance.now() ms); Infinity when none is. */
  nextDue(): number;
  /** Whether every request it sent has been answered or lost. */
  settled(): boolean;
  finish(): TargetReport;
}

function redirectTally(target: RedirectTarget, plan: LoadPlan): Tally {
  const url = new URL(target.url);
  const nextRequest = cycle(
    readPaths(target.pathsFile).map((path) =>
      Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, 'latin1'),
    ),
  );
  const intervalMs = 1000 / target.rate;
  const warmupCount = Math.round(target.rate * plan.warmupSeconds);
  const total = warmupCount + Math.round(target.rate * plan.seconds);
  const latencyMs = new Float64Array(total).fill(Number.NaN); // NaN: never answered
  const statuses = new Uint16Array(total);
  const sentLate = new Uint8Array(total);
  let startedAt = 0;
  let due = 0;
  let settled = 0;
  const intendedAt = (request: number) => startedAt + request * intervalMs;
  const events: ConnectionEvents = {
    sent(request, sentAt) {
      if (sentAt - intendedAt(request) > LATE_MS) sentLate[request] = 1;
    },
    answered(request, status, answeredAt) {
      latencyMs[request] = answeredAt - intendedAt(request);
      statuses[request] = status;
      settled++;
    },
    failed() {
      settled++;
    },
  };
  const connections = Array.from(
    { length: target.connections },
    () => new KeepAliveConnection(url.hostname, Number(url.port || 80), events),
  );
  return {
    label: target.label,
    ready: () => Promise.all(connections.map((connection) => connection.ready())).then(() => {}),
    start(measuredFrom) {
      // The schedule begins warmupSeconds before the measured window.
      startedAt = measuredFrom - plan.warmupSeconds * 1000;
    },
    tick(now) {
      for (; due < total && intendedAt(due) <= now; due++) {
        (connections[due % connections.length] as KeepAliveConnection).send(due, nextRequest());
      }
      return due < total;
    },
    nextDue: () => (due < total ? intendedAt(due) : Number.POSITIVE_INFINITY),
    settled: () => settled === total,
    finish() {
      for (const connection of connections) connection.close();
      const measured = latencyMs.subarray(warmupCount);
      const answered = measured.filter((ms) => !Number.isNaN(ms));
      const measuredStatuses = statuses.subarray(warmupCount);
      const byStatus: Record<string, number> = {};
      for (let i = 0; i < measured.length; i++) {
        if (Number.isNaN(measured[i])) continue;
        const status = String(measuredStatuses[i]);
        byStatus[status] = (byStatus[status] ?? 0) + 1;
      }
      return {
        ...reportOf(
          answered,
          plan.seconds,
          measured.length - answered.length,
          measuredStatuses.filter(isStatusError).length,
        ),
        offered: target.rate,
        late: sentLate.subarray(warmupCount).reduce((sum, flag) => sum + flag, 0),
        statuses: byStatus,
      };
    },
  };
}

function createTally(target: CreateTarget): Tally {
  const url = new URL(target.url);
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  let measuredFrom = 0;
  let end = 0;
  let sentCount = 0;
  let inFlight = 0;
  let lost = 0;
  const request = (n: number): Buffer => {
    const body = JSON.stringify({
      destination: `https://regions.example/${target.tag}/${target.label}/${n}`,
    });
    return Buffer.from(
      `POST /v1/links HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${target.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      'latin1',
    );
  };
  const connections: KeepAliveConnection[] = [];
  const sendNext = (connection: KeepAliveConnection) => {
    if (performance.now() >= end) return;
    inFlight++;
    connection.send(sentCount, request(sentCount));
    sentCount++;
  };
  for (let i = 0; i < target.connections; i++) {
    let sentAt = 0;
    const connection: KeepAliveConnection = new KeepAliveConnection(
      url.hostname,
      Number(url.port || 80),
      {
        sent(_request, at) {
          sentAt = at;
        },
        answered(_request, status, answeredAt) {
          inFlight--;
          if (answeredAt >= measuredFrom && answeredAt < end) {
            latencies.push(answeredAt - sentAt);
            byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
          }
          sendNext(connection);
        },
        failed() {
          inFlight--;
          lost++;
          sendNext(connection);
        },
      },
    );
    connections.push(connection);
  }
  return {
    label: target.label,
    ready: () => Promise.all(connections.map((connection) => connection.ready())).then(() => {}),
    start(from, windowEnd) {
      measuredFrom = from;
      end = windowEnd;
      for (const connection of connections) sendNext(connection);
    },
    tick: () => false,
    nextDue: () => Number.POSITIVE_INFINITY,
    settled: () => inFlight === 0,
    finish() {
      for (const connection of connections) connection.close();
      const created = byStatus['201'] ?? 0;
      const seconds = (end - measuredFrom) / 1000;
      return {
        ...reportOf(Float64Array.from(latencies), seconds, lost, latencies.length - created),
        statuses: byStatus,
      };
    },
  };
}

async function run(plan: LoadPlan): Promise<Record<string, TargetReport>> {
  const tallies = plan.targets.map((target) =>
    target.kind === 'redirects' ? redirectTally(target, plan) : createTally(target),
  );
  // Every connection up before the clock starts.
  await Promise.all(tallies.map((tally) => tally.ready()));
  const measuredFrom = performance.now() + plan.warmupSeconds * 1000;
  const end = measuredFrom + plan.seconds * 1000;
  for (const tally of tallies) tally.start(measuredFrom, end);
  const openLoop = plan.targets.some((target) => target.kind === 'redirects');
  await new Promise<void>((resolve) => {
    const drainUntil = () => {
      const deadline = performance.now() + DRAIN_MS;
      const poll = () => {
        if (tallies.every((tally) => tally.settled()) || performance.now() > deadline) resolve();
        else setTimeout(poll, 5);
      };
      poll();
    };
    if (!openLoop) {
      setTimeout(drainUntil, end - performance.now());
      return;
    }
    // A setImmediate loop near each send, as in open-loop.ts (1 ms timer granularity would
    // add up to a millisecond of latency that is not the servers'), and a timer in between:
    // open-loop.ts has a core of its own to spin on; here the servers need the CPU (two
    // vCPUs for six hops and their regions' servers), and answers are read while it sleeps.
    const tick = () => {
      const now = performance.now();
      let more = false;
      for (const tally of tallies) more = tally.tick(now) || more;
      if (!more && now >= end) {
        drainUntil();
        return;
      }
      const next = Math.min(end, ...tallies.map((tally) => tally.nextDue()));
      if (next - now > SPIN_MS + 1) setTimeout(tick, next - now - SPIN_MS);
      else setImmediate(tick);
    };
    tick();
  });
  return Object.fromEntries(tallies.map((tally) => [tally.label, tally.finish()]));
}

const planText = process.argv[2];
if (planText === undefined) throw new Error("usage: multi-target-load.ts '<plan as JSON>'");
const reports = await run(JSON.parse(planText) as LoadPlan);
// The same number formatting as every driver's line, plus the statuses.
const lines = Object.entries(reports).map(
  ([label, report]) =>
    `${JSON.stringify(label)}:${formatReport(report).slice(0, -1)},"statuses":${JSON.stringify(report.statuses)}}`,
);
process.stdout.write(`{"reports":{${lines.join(',')}}}\n`);
process.exit(0);

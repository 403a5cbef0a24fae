/**
 * `npm run bench -- regions` (issue 25): hop active-active in three regions, measured at a
 * short and a long distance between them in the same windows.
 *
 * Two sets of three regions run at once, each built by the test harness
 * (test/support/regions/three-regions.ts: a network namespace per region with a MariaDB
 * Galera node, a Redis and a NATS server joined by gateways; a user-space WAN hub delays
 * every packet between regions; the bench reaches every region directly, without the
 * delay). One set's regions are BENCH_REGIONS_NEAR_MS apart (one way, default 1 ms), the
 * other's BENCH_REGIONS_FAR_MS (default 50 ms); the two swap delays (the hub's `delay`)
 * window by window, so whatever differs between the sets' processes falls on both
 * distances alike. Each region runs one `hop serve` (compiled; the bench builds it) at
 * hop's defaults plus HOP_REGION, HOP_DATABASE_URL (the region's node), HOP_REDIS_URL,
 * HOP_NATS_URL, HOP_BOOTSTRAP_ADMIN_KEY (no create limit applies to it), HOP_HOST,
 * HOP_PORT and HOP_DATA_DIR; no `hop worker` (clicks wait in each region's stream).
 *
 * Each set's processes (its Galera nodes, Redis, NATS, hub and hops) share a cpu cgroup of
 * equal weight (bench/support/cpu-share-groups.ts), so neither set's work takes the other's
 * half of the machine when both want more; the load generator (one process for every
 * target, bench/support/multi-target-load.ts) is pinned to the load core at nice -10.
 *
 * 1. Seed: BENCH_REGIONS_LINKS links (default 200) created through region A's API in each
 *    set; every region's hop answers each of them 302 before anything is measured.
 * 2. Redirects: open loop (bench/open-loop.ts's method: latency from each request's
 *    intended send time) at BENCH_REGIONS_RATE requests/s (default 200) to every region's
 *    hop in both sets at once, uniform over the seeded codes; 2 × BENCH_ROUNDS windows
 *    after a warm-up. Per region: p50 and p99 at each distance, and far over near per
 *    window (same window), whose median should be 1: redirects never leave the region.
 * 3. Creates: closed loop, BENCH_REGIONS_CLIENTS connections (default 8 then 32) POSTing
 *    /v1/links to region A's hop in both sets at once, 2 windows per count (one per
 *    assignment of the delays) after a warm-up: creates/s, p50, p99. A create commits on
 *    A's node once the cluster has certified it: a WAN round trip, so at a distance the
 *    rate is bounded by clients / round trip (and by hop's pool of HOP_DATABASE_POOL_SIZE
 *    connections, 10 by default, each holding one create while it waits).
 * 4. Galera alone: 20 autocommit INSERTs in a row on A's node from here, idle, at both
 *    distances: the commit time a create cannot beat.
 * 5. An alias race: 20 creates of one alias at once, 10 to A and 10 to B, in both sets:
 *    one 201, nineteen 409 expected.
 *
 * Everything is stopped, the namespaces and temp folders removed, also when the run fails.
 *
 * Environment: BENCH_SECONDS (per window, default 10), BENCH_ROUNDS (redirect rounds of two
 * windows, default 2), BENCH_WARMUP_SECONDS (default 3), BENCH_REGIONS_NEAR_MS (1),
 * BENCH_REGIONS_FAR_MS (50), BENCH_REGIONS_LINKS (200), BENCH_REGIONS_RATE (200, per
 * region), BENCH_REGIONS_CLIENTS (8,32), BENCH_REPORT (default BENCHMARKS.md). The hops
 * inherit the environment (HOP_* settings are named in the report).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import {
  startRegions,
  type Region,
  type Regions,
  type RegionsOwner,
} from '../test/support/regions/three-regions.js';
import { startRegionHop, type RegionHop } from '../test/support/region-hops.js';
import { deleteNamespace, pidsIn } from '../test/support/regions/network.js';
import { CpuShareGroups } from './support/cpu-share-groups.js';
import { CpuWindow, type CpuUse } from './support/cpu-window.js';
import { metricValue, redirectOutcomes } from './support/hop-metrics.js';
import type { LoadPlan, LoadTarget, TargetReport } from './support/multi-target-load.js';
import { moveIntoCpuGroup } from './support/namespace-cpu-groups.js';
import { LOAD_CORE, pin } from './support/pin-to-core.js';
import { residentMb } from './support/process-memory.js';
import { describeMachine, mean, median, progress, publishReport } from './support/report.js';
import { BENCH_ROOT as ROOT, buildHop, trackProcess } from './support/servers.js';
import { numberFromEnv } from './support/settings.js';

const SECONDS = numberFromEnv('BENCH_SECONDS', 10);
const ROUNDS = Math.round(numberFromEnv('BENCH_ROUNDS', 2));
const WARMUP_SECONDS = numberFromEnv('BENCH_WARMUP_SECONDS', 3);
const NEAR_MS = numberFromEnv('BENCH_REGIONS_NEAR_MS', 1);
const FAR_MS = numberFromEnv('BENCH_REGIONS_FAR_MS', 50);
const LINKS = Math.round(numberFromEnv('BENCH_REGIONS_LINKS', 200));
const RATE = numberFromEnv('BENCH_REGIONS_RATE', 200);
const CLIENTS = clientCounts(process.env['BENCH_REGIONS_CLIENTS'] ?? '8,32');
const REGION_NAMES = ['a', 'b', 'c'] as const;
const HOP_PORT = 8080;
const DATABASE = 'hop';
const ADMIN_KEY = 'hop_regions_bench_admin_key_0123456789';
/** Connections per region's hop for the redirects: ample for 200/s at a few ms each. */
const REDIRECT_CONNECTIONS = 8;
const SEED_CONCURRENCY = 8;
const PATHS = 10_000;
const ALIAS_CLAIMS = 20;
/** Bare autocommit INSERTs on A's node per distance: Galera's own commit time, without hop. */
const PROBE_COMMITS = 20;
/**
 * The load generator's priority (nice): the servers (not pinned) also run on its core, and
 * without priority it got 0.7 of the core in a trial and sent most requests more than 1 ms
 * late, latency that was not the servers'. With it, a timer of its wakes it on time.
 */
const LOAD_NICE = -10;
/** A bound for waits on a loaded 2-vCPU machine (a hop's start, a link reaching a region). */
const WAIT_MS = 60_000;
/**
 * A far/near redirect p50 above this in any region counts as growth with distance: a
 * redirect that crossed regions once would multiply a ~1 ms p50 by about a hundred here.
 */
const MAX_REDIRECT_GROWTH = 1.25;
const RUN_TAG = `${process.pid}-${Date.now().toString(36)}`;

type Distance = 'near' | 'far';

interface RegionSet {
  /** 0 or 1: its cpu group, and its targets' labels (`s1-a`, `s2-c`). */
  readonly index: number;
  readonly world: Regions;
  readonly hops: ReadonlyMap<string, RegionHop>;
  codes: readonly string[];
  pathsFile: string;
}

interface RedirectWindow {
  /** The set whose regions were BENCH_REGIONS_FAR_MS apart. */
  readonly farSet: number;
  readonly reports: Readonly<Record<string, TargetReport>>;
  /** Per target, hop's redirects by outcome over the window (after minus before). */
  readonly outcomes: Readonly<Record<string, Record<string, number>>>;
  /**
   * Per target, hop's event-loop delay over the window, ms (prom-client's p99 and max,
   * which it resets at each scrape): a stalled event loop is a redirect's tail.
   */
  readonly loopDelayMs: Readonly<Record<string, { readonly p99: number; readonly max: number }>>;
  readonly cpu: CpuUse<CpuGroup>;
}

interface CreateWindow {
  readonly clients: number;
  readonly farSet: number;
  readonly reports: Readonly<Record<string, TargetReport>>;
  readonly cpu: CpuUse<CpuGroup>;
}

type CpuGroup = 'set1' | 'set2' | 'load';

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'hop-regions-bench-'));
/** The harness's cleanups (RegionsOwner.after), run last first. */
const cleanups: (() => Promise<void>)[] = [];
const owner: RegionsOwner = { after: (cleanup) => void cleanups.push(cleanup) };
let groups: CpuShareGroups | null = null;
let cleaned: Promise<string> | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await run();
} finally {
  progress(await cleanUp());
}
process.exit(0);

async function run(): Promise<void> {
  buildHop(ROOT);
  // 1. Two sets of three regions, one near and one far to begin with, built one after the
  // other: two mariadb-install-db at once collided on their temporary tables in /tmp.
  const worlds: Regions[] = [];
  for (const delayMs of [NEAR_MS, FAR_MS]) {
    const world = await startRegions(owner, { names: [...REGION_NAMES], delayMs, jetStream: true });
    if (world === null) throw new Error('the regions could not be built');
    worlds.push(world);
  }
  const startupMs = Math.round(performance.now() - started);
  progress(`regions up in ${startupMs} ms`);
  const sets: RegionSet[] = await Promise.all(
    worlds.map(async (world, index) => ({
      index,
      world,
      hops: await startHops(world),
      codes: [],
      pathsFile: '',
    })),
  );
  progress(`hops up at ${Math.round(performance.now() - started)} ms`);
  groups = CpuShareGroups.create(2);
  const grouped = sets.map((set) =>
    groups === null ? 0 : moveIntoCpuGroup(groups, set.index, setPids(set)),
  );

  // 2. Seed through A, and wait until every region answers every link.
  await Promise.all(sets.map(seed));
  const warmed = await Promise.all(sets.map(warmRegions));
  progress(`seeded and warm at ${Math.round(performance.now() - started)} ms`);

  // Round trips a → b at both distances, in both sets (each set is near in some windows).
  const roundTrips = new Map<string, number>();
  const delays = async (farSet: number) => {
    await Promise.all(
      sets.map(async (set) => {
        const ms = set.index === farSet ? FAR_MS : NEAR_MS;
        if (set.world.delayMs !== ms) await set.world.setDelay(ms);
        const key = `${set.index}:${ms}`;
        if (!roundTrips.has(key)) roundTrips.set(key, await set.world.roundTripMs('a', 'b'));
      }),
    );
  };

  // 3. Redirects, every region of both sets in one open-loop run per window.
  const redirectTargets = sets.flatMap((set) =>
    REGION_NAMES.map((region): LoadTarget => ({
      kind: 'redirects',
      label: label(set, region),
      url: hopOf(set, region).url,
      pathsFile: set.pathsFile,
      rate: RATE,
      connections: REDIRECT_CONNECTIONS,
    })),
  );
  await delays(1);
  await runLoad({ seconds: WARMUP_SECONDS, warmupSeconds: 1, targets: redirectTargets });
  const redirectWindows: RedirectWindow[] = [];
  for (let window = 0; window < 2 * ROUNDS; window++) {
    const farSet = (window + 1) % 2;
    await delays(farSet);
    const before = await readMetrics(sets);
    const cpu = watchCpu(sets);
    const reports = await runLoad(
      { seconds: SECONDS, warmupSeconds: 1, targets: redirectTargets },
      cpu,
    );
    const after = await readMetrics(sets);
    const outcomes = Object.fromEntries(
      Object.entries(after).map(([target, text]) => [
        target,
        subtract(redirectOutcomes(text), redirectOutcomes(before[target] ?? '')),
      ]),
    );
    const loopDelayMs = Object.fromEntries(
      Object.entries(after).map(([target, text]) => [
        target,
        {
          p99: 1000 * metricValue(text, 'hop_nodejs_eventloop_lag_p99_seconds'),
          max: 1000 * metricValue(text, 'hop_nodejs_eventloop_lag_max_seconds'),
        },
      ]),
    );
    redirectWindows.push({ farSet, reports, outcomes, loopDelayMs, cpu: cpu.stop() });
    progress(
      `redirects window ${window + 1} of ${2 * ROUNDS} (set ${farSet + 1} far): p99 ${REGION_NAMES.map(
        (region) =>
          `${region} ${pick(reports, sets, farSet, region, 'near').p99.toFixed(2)}/${pick(reports, sets, farSet, region, 'far').p99.toFixed(2)}`,
      ).join(', ')} ms (near/far)`,
    );
  }

  // 4. Creates into A, both sets at once, for each client count.
  const statsBefore = await Promise.all(sets.map((set) => createStats(hopOf(set, 'a'))));
  const certBefore = await Promise.all(sets.map(certificationCounters));
  const createWindows: CreateWindow[] = [];
  for (const clients of CLIENTS) {
    const targets = (tag: string) =>
      sets.map((set): LoadTarget => ({
        kind: 'creates',
        label: label(set, 'a'),
        url: hopOf(set, 'a').url,
        key: ADMIN_KEY,
        connections: clients,
        tag: `${RUN_TAG}-${clients}-${tag}`,
      }));
    await runLoad({ seconds: WARMUP_SECONDS, warmupSeconds: 0.5, targets: targets('warmup') });
    for (let window = 0; window < 2; window++) {
      const farSet = (window + 1) % 2;
      await delays(farSet);
      const cpu = watchCpu(sets);
      const reports = await runLoad(
        { seconds: SECONDS, warmupSeconds: 1, targets: targets(`w${window}`) },
        cpu,
      );
      createWindows.push({ clients, farSet, reports, cpu: cpu.stop() });
      progress(
        `creates, ${clients} clients, window ${window + 1} of 2: near ${pick(reports, sets, farSet, 'a', 'near').rps.toFixed(0)}/s, far ${pick(reports, sets, farSet, 'a', 'far').rps.toFixed(0)}/s`,
      );
    }
  }
  const statsAfter = await Promise.all(sets.map((set) => createStats(hopOf(set, 'a'))));
  const certAfter = await Promise.all(sets.map(certificationCounters));
  // Galera's commit alone, idle, at both distances in both sets.
  const commits: Record<Distance, number[]> = { near: [], far: [] };
  for (const farSet of [1, 0]) {
    await delays(farSet);
    const probed = await Promise.all(sets.map(probeCommits));
    sets.forEach((set, i) => commits[set.index === farSet ? 'far' : 'near'].push(...probed[i]!));
  }
  const aliasFarSet = 1;
  await delays(aliasFarSet);
  const races = await Promise.all(sets.map(aliasRace));
  const rss = sets.flatMap((set) =>
    REGION_NAMES.map((region) => residentMb(hopOf(set, region).process.child.pid ?? 0)),
  );
  const warnings = sets.flatMap((set) =>
    REGION_NAMES.flatMap((region) =>
      warningsOf(hopOf(set, region).process.output()).map((message) => ({
        message,
        where: `set ${set.index + 1} ${region}`,
      })),
    ),
  );
  const cleanup = await cleanUp();

  // 5. Report.
  const rtt = (distance: Distance) =>
    [0, 1].map((index) => roundTrips.get(`${index}:${distance === 'far' ? FAR_MS : NEAR_MS}`) ?? 0);
  const roundTripOf = (distance: Distance) => mean(rtt(distance), (ms) => ms);
  const inherited = Object.keys(process.env).filter((name) => name.startsWith('HOP_'));
  const createdPerRoundTrip = sets.map((set, i) => {
    const before = statsBefore[i];
    const after = statsAfter[i];
    if (before === null || after === null || before === undefined || after === undefined) {
      return 'not read';
    }
    const created = after.links_created - before.links_created;
    return created > 0
      ? `${((after.store_round_trips - before.store_round_trips) / created).toFixed(3)} over ${created} creates`
      : 'no creates';
  });
  const certification = sets.map((set, i) => {
    const before = certBefore[i] ?? {};
    const after = certAfter[i] ?? {};
    return Object.keys(after)
      .map((name) => `${name} ${(after[name] ?? 0) - (before[name] ?? 0)}`)
      .join(', ');
  });
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  publishReport(
    [
      `## regions: ${new Date().toISOString()}`,
      '',
      `Command: \`npm run bench -- regions\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_WARMUP_SECONDS=${WARMUP_SECONDS}, BENCH_REGIONS_NEAR_MS=${NEAR_MS}, BENCH_REGIONS_FAR_MS=${FAR_MS}, BENCH_REGIONS_LINKS=${LINKS}, BENCH_REGIONS_RATE=${RATE}, BENCH_REGIONS_CLIENTS=${CLIENTS.join(',')}; ${minutes} min in all, the regions up in ${(startupMs / 1000).toFixed(1)} s).`,
      `Machine: ${describeMachine()}: a VM with two vCPUs whose host takes CPU away at times (steal, below). Everything on these two cores: six Galera nodes, six Redis, six NATS servers, two WAN hubs (python3), six hops, and the load generator (pinned to core ${LOAD_CORE} at nice ${LOAD_NICE}, so that its sends leave on time; nothing else pinned).`,
      `Topology: two sets of three regions (test/support/regions/three-regions.ts), each region a network namespace with a MariaDB Galera node, a Redis and a NATS server (gateways, JetStream), and one \`hop serve\` (\`node dist/cli/hop.js serve\`, compiled) at its defaults plus HOP_REGION, HOP_DATABASE_URL (its region's node), HOP_REDIS_URL, HOP_NATS_URL, HOP_BOOTSTRAP_ADMIN_KEY, HOP_HOST, HOP_PORT, HOP_DATA_DIR${inherited.length === 0 ? '' : `, and from the environment ${inherited.join(', ')}`}; no \`hop worker\` (clicks wait in each region's stream). The load generator reaches every hop directly, without the WAN delay. One set's regions are ${NEAR_MS} ms apart one way (near), the other's ${FAR_MS} ms (far); the sets swap delays before every other window, so each distance is measured on both sets' processes. Round trip a → b measured inside a (smallest of 5 Redis PINGs): near ${rtt(
        'near',
      )
        .map((ms) => ms.toFixed(2))
        .join(' and ')} ms, far ${rtt('far')
        .map((ms) => ms.toFixed(2))
        .join(' and ')} ms (set 1, set 2).`,
      `Pairing and CPU: both sets are measured in the same windows (one load process drives all targets). ${groups === null ? 'No cpu cgroups could be made: the scheduler was fair per thread between the sets' : `Each set's processes (Galera, Redis, NATS, its hub and its hops, found by network namespace: ${grouped.join(' and ')} processes) in a cpu cgroup of equal weight (cpu.shares 1024), so a set that wants more than half the machine gets it only while the other does not`}. The load generator runs outside both, with priority.`,
      `Seeding: ${LINKS} links per set created through region A's API (admin key); before any window, every region's hop answered each of them 302 (${warmed.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' and ')} after the last create, set 1 and set 2).`,
      `Result: ${describeResult(redirectWindows, createWindows, sets, roundTripOf, commits)}`,
      '',
      '### Redirects',
      '',
      `Open loop, ${RATE} req/s offered to each region's hop in both sets at once (${6 * RATE} req/s in all), ${REDIRECT_CONNECTIONS} keep-alive connections per hop, uniform over the set's ${LINKS} links, latency from each request's intended send time (bench/open-loop.ts's method, in bench/support/multi-target-load.ts). ${2 * ROUNDS} windows of ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up, each after 1 s not counted. far/near: per window, far over near in that same window; the median over windows (range). late: requests the generator sent more than 1 ms after their intended time (that delay is in their latency). hop event-loop delay: each hop's own, over each window (prom-client's p99, the mean over windows, and the max): a redirect answered from L1 waits for nothing else, so its tail is the event loop's. answered from: hop's redirects by outcome over the windows (/metrics).`,
      '',
      '| region | near p50 ms | far p50 ms | far/near p50 | near p99 ms | far p99 ms | far/near p99 | req/s near / far | late near / far | not 302 near / far | hop event-loop delay p99 / max ms, near; far | answered from L1 / L2 / store, near; far |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...REGION_NAMES.map((region) => redirectRow(region, redirectWindows, sets)),
      '',
      `CPU per window (user + system s/s, mean): set near ${mean(redirectWindows, (w) => setCpu(w.cpu, 1 - w.farSet)).toFixed(2)}, set far ${mean(redirectWindows, (w) => setCpu(w.cpu, w.farSet)).toFixed(2)}, load generator ${mean(redirectWindows, (w) => w.cpu.groups.load).toFixed(2)}, other ${mean(redirectWindows, (w) => w.cpu.others).toFixed(2)}; steal ${mean(redirectWindows, (w) => w.cpu.stealPercent).toFixed(1)}%.`,
      '',
      '### Creates',
      '',
      `Closed loop: each client a keep-alive connection POSTing /v1/links (a new destination each time, admin key) to region A's hop as soon as its last answer is read, both sets at once; two windows of ${SECONDS} s per client count (one per assignment of the delays), after a ${WARMUP_SECONDS} s warm-up and 1 s not counted. bound: clients / round trip a → b, the rate if every create waited exactly one WAN round trip; hop's writes go through a pool of ${process.env['HOP_DATABASE_POOL_SIZE'] ?? '10 (HOP_DATABASE_POOL_SIZE, default)'} connections, so no more creates than that wait on a commit at once. far/near: creates/s per window, the median. p50 extra: far p50 − near p50 over (far − near round trip), the WAN round trips a create waits.`,
      '',
      '| clients | distance | round trip ms | creates/s | p50 ms | p99 ms | not 201 | bound creates/s | far/near creates/s | p50 extra, round trips | CPU of the set s/s |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...CLIENTS.flatMap((clients) =>
        createRows(
          clients,
          createWindows.filter((w) => w.clients === clients),
          sets,
          roundTripOf,
        ),
      ),
      '',
      `CPU per window (user + system s/s, mean, both client counts): load generator ${mean(createWindows, (w) => w.cpu.groups.load).toFixed(2)}, other ${mean(createWindows, (w) => w.cpu.others).toFixed(2)}; steal ${mean(createWindows, (w) => w.cpu.stealPercent).toFixed(1)}%. other: the machine's CPU used by none of the sets, the load generator or this process (other work on the machine).`,
      `Galera alone: ${PROBE_COMMITS} autocommit INSERTs one after the other into a table of its own on A's node, from here (no hop), idle, in both sets at each distance: near p50 ${median(commits.near).toFixed(1)} ms (min ${Math.min(...commits.near).toFixed(1)}), far p50 ${median(commits.far).toFixed(1)} ms (min ${Math.min(...commits.far).toFixed(1)}).`,
      `Store round trips per create in A (hop's /v1/stats, conditional inserts plus generator leases, over the create windows and warm-ups): set 1 ${createdPerRoundTrip[0]}, set 2 ${createdPerRoundTrip[1]}. Galera on A's node over the creates (SHOW GLOBAL STATUS, after minus before): set 1 ${certification[0]}; set 2 ${certification[1]}.`,
      `Alias race: ${ALIAS_CLAIMS} creates of one alias at once, half to A and half to B: ${races
        .map(
          (race, i) =>
            `${i === aliasFarSet ? 'far' : 'near'} ${describeStatuses(race.statuses)} in ${race.ms.toFixed(0)} ms`,
        )
        .join('; ')} (expected one 201, the rest 409).`,
      `Resident memory of the hops at the end: ${rss.map((mb) => mb.toFixed(0)).join(', ')} MB (set 1 a, b, c, set 2 a, b, c). hop log lines at warn or above: ${warnings.length === 0 ? 'none' : summarize(warnings)}.`,
      `Afterwards: ${cleanup}`,
      '',
    ].join('\n'),
  );
}

/**
 * The figures the issue asks for, in one paragraph: far over near per region for the
 * redirects, and what a create costs at a distance, in round trips.
 */
function describeResult(
  redirects: readonly RedirectWindow[],
  creates: readonly CreateWindow[],
  sets: readonly RegionSet[],
  roundTripOf: (distance: Distance) => number,
  commits: Readonly<Record<Distance, readonly number[]>>,
): string {
  const medianRatio = (region: string, metric: 'p50' | 'p99') =>
    median(
      redirects.map(
        (w) =>
          pick(w.reports, sets, w.farSet, region, 'far')[metric] /
          pick(w.reports, sets, w.farSet, region, 'near')[metric],
      ),
    );
  const p50s = REGION_NAMES.map((region) => medianRatio(region, 'p50'));
  const p99s = REGION_NAMES.map((region) => medianRatio(region, 'p99'));
  const pct = (ratio: number) => `${(100 * ratio).toFixed(0)}%`;
  const farRtt = roundTripOf('far');
  const held = p50s.every((ratio) => ratio <= MAX_REDIRECT_GROWTH);
  const createLines = CLIENTS.map((clients) => {
    const windows = creates.filter((w) => w.clients === clients);
    const at = (distance: Distance) =>
      windows.map((w) => pick(w.reports, sets, w.farSet, 'a', distance));
    const far = at('far');
    const rps = mean(far, (r) => r.rps);
    return `${clients} clients ${rps.toFixed(0)}/s (${pct(rps / mean(at('near'), (r) => r.rps))} of near, bound ${((clients * 1000) / farRtt).toFixed(0)}), p50 ${(mean(far, (r) => r.p50) / farRtt).toFixed(1)} round trips`;
  });
  return `redirects far/near, median of the windows, p50 ${REGION_NAMES.map((region, i) => `${region} ${pct(p50s[i] ?? 0)}`).join(', ')}; p99 ${REGION_NAMES.map((region, i) => `${region} ${pct(p99s[i] ?? 0)}`).join(', ')}: ${held ? 'no growth with distance' : 'GREW with distance'} (a redirect that crossed regions once would add a round trip, ${farRtt.toFixed(0)} ms, to a far p50 of about a millisecond). Creates into A at ${FAR_MS} ms (round trip ${farRtt.toFixed(0)} ms): ${createLines.join('; ')}. Galera's own commit there: p50 ${(median(commits.far) / farRtt).toFixed(1)} round trips (min ${(Math.min(...commits.far) / farRtt).toFixed(1)}).`;
}

/** Starts region a's hop first (it migrates the database and makes the admin key), then b and c. */
async function startHops(world: Regions): Promise<Map<string, RegionHop>> {
  const hops = new Map<string, RegionHop>();
  hops.set('a', await startHop(world.region('a')));
  await Promise.all(
    REGION_NAMES.slice(1).map(async (name) => hops.set(name, await startHop(world.region(name)))),
  );
  return hops;
}

/**
 * A region's `hop serve` at hop's defaults plus what a region needs (no test settings: the
 * regions test's regionEnv shortens flushes and turns shedding off).
 */
function startHop(region: Region): Promise<RegionHop> {
  return startRegionHop(
    owner,
    region,
    'serve',
    HOP_PORT,
    {
      HOP_REGION: region.name,
      HOP_DATABASE_URL: `mysql://root@${region.address}:3306/${DATABASE}`,
      HOP_REDIS_URL: region.redis.url,
      HOP_NATS_URL: region.nats.url,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
    },
    WAIT_MS / 10,
  );
}

/** Every process of the set: in its regions' namespaces and its hub's. */
function setPids(set: RegionSet): number[] {
  const first = set.world.region('a');
  // The harness names a run's namespaces hop-<pid>-<run>-<region> and its hub's …-hub.
  const hub = `${first.netns.slice(0, -first.name.length)}hub`;
  return [...REGION_NAMES.map((name) => set.world.region(name).netns), hub].flatMap(pidsIn);
}

/** LINKS creates through A, SEED_CONCURRENCY at a time; writes the set's paths file. */
async function seed(set: RegionSet): Promise<void> {
  const a = hopOf(set, 'a');
  const codes: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SEED_CONCURRENCY }, async () => {
      while (next < LINKS) {
        const n = next++;
        const response = await fetchOnce(`${a.url}/v1/links`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ destination: `https://regions.example/seed/${set.index}/${n}` }),
        });
        const body = (await response.json()) as { code?: string };
        if (response.status !== 201 || body.code === undefined) {
          throw new Error(`seed create answered ${response.status}: ${JSON.stringify(body)}`);
        }
        codes.push(body.code);
      }
    }),
  );
  set.codes = codes;
  set.pathsFile = join(dir, `set${set.index + 1}.paths`);
  writeFileSync(
    set.pathsFile,
    Array.from({ length: PATHS }, () => `/${codes[Math.floor(Math.random() * codes.length)]}`).join(
      '\n',
    ) + '\n',
  );
}

/** Waits until every region's hop answers every seeded code 302; ms it took. */
async function warmRegions(set: RegionSet): Promise<number> {
  const began = performance.now();
  await Promise.all(
    REGION_NAMES.map(async (region) => {
      const hop = hopOf(set, region);
      let pending = [...set.codes];
      await until(
        `set ${set.index + 1} region ${region} redirecting every seeded link`,
        async () => {
          const statuses = await Promise.all(
            pending.map(async (code) => {
              const response = await fetchOnce(`${hop.url}/${code}`, { redirect: 'manual' });
              await response.arrayBuffer();
              return response.status;
            }),
          );
          pending = pending.filter((_, i) => statuses[i] !== 302);
          return pending.length === 0;
        },
      );
    }),
  );
  return performance.now() - began;
}

/** Runs the load generator on the load core (its CPU counted in `cpu`); reports by label. */
function runLoad(plan: LoadPlan, cpu?: CpuWindow<CpuGroup>): Promise<Record<string, TargetReport>> {
  const [file, ...args] = [
    'nice',
    '-n',
    String(LOAD_NICE),
    ...pin(LOAD_CORE, [
      process.execPath,
      '--import',
      'tsx',
      'bench/support/multi-target-load.ts',
      JSON.stringify(plan),
    ]),
  ];
  const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  trackProcess(child);
  cpu?.track('load', child.pid, true);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('{"reports"'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`the load generator exited with ${code}:\n${output}`));
        return;
      }
      resolve((JSON.parse(line) as { reports: Record<string, TargetReport> }).reports);
    });
  });
}

/**
 * CPU of each set's processes over a window (listed once: none start or stop during a
 * window), and of the load generator, which runLoad adds.
 */
function watchCpu(sets: readonly RegionSet[]): CpuWindow<CpuGroup> {
  const cpu = new CpuWindow<CpuGroup>(['set1', 'set2', 'load']);
  for (const set of sets) {
    for (const pid of setPids(set)) cpu.track(set.index === 0 ? 'set1' : 'set2', pid);
  }
  return cpu;
}

function setCpu(cpu: CpuUse<CpuGroup>, index: number): number {
  return index === 0 ? cpu.groups.set1 : cpu.groups.set2;
}

/** Every hop's /metrics text, by target label. */
async function readMetrics(sets: readonly RegionSet[]): Promise<Record<string, string>> {
  const entries = await Promise.all(
    sets.flatMap((set) =>
      REGION_NAMES.map(async (region) => {
        const response = await fetchOnce(`${hopOf(set, region).url}/metrics`);
        return [label(set, region), await response.text()] as const;
      }),
    ),
  );
  return Object.fromEntries(entries);
}

interface CreateStats {
  readonly links_created: number;
  readonly store_round_trips: number;
}

async function createStats(hop: RegionHop): Promise<CreateStats | null> {
  try {
    const response = await fetchOnce(`${hop.url}/v1/stats`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    return ((await response.json()) as { creates: CreateStats }).creates;
  } catch {
    return null;
  }
}

/** Galera's conflict counters on region A's node. */
async function certificationCounters(set: RegionSet): Promise<Record<string, number>> {
  const rows = await set.world
    .region('a')
    .galera.query<RowDataPacket>(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts', 'wsrep_flow_control_sent')",
    );
  return Object.fromEntries(
    rows.map((row) => [String(row['Variable_name']), Number(row['Value'])]),
  );
}

/**
 * PROBE_COMMITS autocommit INSERTs in a row on region A's node, each timed: what a commit
 * waits for the cluster, with nothing of hop's in the way.
 */
async function probeCommits(set: RegionSet): Promise<number[]> {
  const node = await set.world.region('a').galera.connect();
  try {
    await node.query('CREATE DATABASE IF NOT EXISTS bench_probe');
    await node.query(
      'CREATE TABLE IF NOT EXISTS bench_probe.commits (id BIGINT AUTO_INCREMENT PRIMARY KEY, at BIGINT NOT NULL)',
    );
    const times: number[] = [];
    for (let i = 0; i < PROBE_COMMITS; i++) {
      const began = performance.now();
      await node.query('INSERT INTO bench_probe.commits (at) VALUES (?)', [Date.now()]);
      times.push(performance.now() - began);
    }
    return times;
  } finally {
    await node.end();
  }
}

/** ALIAS_CLAIMS creates of one new alias at once, alternately to A and B. */
async function aliasRace(
  set: RegionSet,
): Promise<{ statuses: Record<string, number>; ms: number }> {
  const alias = `race-${RUN_TAG}-${set.index}`;
  const began = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: ALIAS_CLAIMS }, async (_, i) => {
      const region = i % 2 === 0 ? 'a' : 'b';
      const hop = hopOf(set, region);
      const response = await fetchOnce(`${hop.url}/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ destination: `https://regions.example/race/${i}`, alias }),
      });
      await response.arrayBuffer();
      return `${response.status} from ${region.toUpperCase()}`;
    }),
  );
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return { statuses: counts, ms: performance.now() - began };
}

function redirectRow(
  region: string,
  windows: readonly RedirectWindow[],
  sets: readonly RegionSet[],
): string {
  const at = (distance: Distance) =>
    windows.map((w) => pick(w.reports, sets, w.farSet, region, distance));
  const near = at('near');
  const far = at('far');
  const ratio = (metric: 'p50' | 'p99') =>
    describeRatios(windows.map((_, i) => (far[i]?.[metric] ?? 0) / (near[i]?.[metric] ?? 1)));
  const total = (reports: readonly TargetReport[], count: (r: TargetReport) => number) =>
    reports.reduce((sum, report) => sum + count(report), 0);
  const not302 = (r: TargetReport) =>
    r.errors + Object.entries(r.statuses).reduce((n, [s, c]) => n + (s === '302' ? 0 : c), 0);
  const answered = (distance: Distance) => {
    const counts: Record<string, number> = {};
    for (const w of windows) {
      const set = distance === 'far' ? w.farSet : 1 - w.farSet;
      for (const [outcome, n] of Object.entries(w.outcomes[`s${set + 1}-${region}`] ?? {})) {
        counts[outcome] = (counts[outcome] ?? 0) + n;
      }
    }
    const rest = Object.entries(counts).filter(
      ([outcome, n]) => !['l1', 'l2', 'store'].includes(outcome) && n > 0,
    );
    return `${counts['l1'] ?? 0} / ${counts['l2'] ?? 0} / ${counts['store'] ?? 0}${rest.length === 0 ? '' : ` (${rest.map(([o, n]) => `${o} ${n}`).join(', ')})`}`;
  };
  const m = (reports: readonly TargetReport[], metric: 'p50' | 'p99' | 'rps') =>
    mean(reports, (r) => r[metric]);
  const loopDelay = (distance: Distance) => {
    const delays = windows.map(
      (w) =>
        w.loopDelayMs[`s${(distance === 'far' ? w.farSet : 1 - w.farSet) + 1}-${region}`] ?? {
          p99: 0,
          max: 0,
        },
    );
    return `${mean(delays, (d) => d.p99).toFixed(1)} / ${Math.max(...delays.map((d) => d.max)).toFixed(0)}`;
  };
  return `| ${region} | ${m(near, 'p50').toFixed(2)} | ${m(far, 'p50').toFixed(2)} | ${ratio('p50')} | ${m(near, 'p99').toFixed(2)} | ${m(far, 'p99').toFixed(2)} | ${ratio('p99')} | ${m(near, 'rps').toFixed(0)} / ${m(far, 'rps').toFixed(0)} | ${total(near, (r) => r.late ?? 0)} / ${total(far, (r) => r.late ?? 0)} | ${total(near, not302)} / ${total(far, not302)} | ${loopDelay('near')}; ${loopDelay('far')} | ${answered('near')}; ${answered('far')} |`;
}

function createRows(
  clients: number,
  windows: readonly CreateWindow[],
  sets: readonly RegionSet[],
  roundTripOf: (distance: Distance) => number,
): string[] {
  const at = (distance: Distance) =>
    windows.map((w) => pick(w.reports, sets, w.farSet, 'a', distance));
  const near = at('near');
  const far = at('far');
  const ratios = describeRatios(windows.map((_, i) => (far[i]?.rps ?? 0) / (near[i]?.rps ?? 1)));
  const extra =
    (mean(far, (r) => r.p50) - mean(near, (r) => r.p50)) /
    (roundTripOf('far') - roundTripOf('near'));
  return (['near', 'far'] as const).map((distance) => {
    const reports = distance === 'near' ? near : far;
    const rtt = roundTripOf(distance);
    const notCreated = reports.reduce((sum, r) => sum + r.errors + r.non2xx3xx, 0);
    const cpu = mean(windows, (w) => setCpu(w.cpu, distance === 'far' ? w.farSet : 1 - w.farSet));
    return `| ${clients} | ${distance} | ${rtt.toFixed(2)} | ${mean(reports, (r) => r.rps).toFixed(0)} | ${mean(reports, (r) => r.p50).toFixed(1)} | ${mean(reports, (r) => r.p99).toFixed(1)} | ${notCreated} | ${((clients * 1000) / rtt).toFixed(0)} | ${distance === 'far' ? ratios : ''} | ${distance === 'far' ? extra.toFixed(2) : ''} | ${cpu.toFixed(2)} |`;
  });
}

/** The report of region `region` at `distance` in a window whose far set was `farSet`. */
function pick(
  reports: Readonly<Record<string, TargetReport>>,
  sets: readonly RegionSet[],
  farSet: number,
  region: string,
  distance: Distance,
): TargetReport {
  const set = sets[distance === 'far' ? farSet : 1 - farSet] as RegionSet;
  const report = reports[label(set, region)];
  if (report === undefined) throw new Error(`no report for ${label(set, region)}`);
  return report;
}

function label(set: RegionSet, region: string): string {
  return `s${set.index + 1}-${region}`;
}

function hopOf(set: RegionSet, region: string): RegionHop {
  const hop = set.hops.get(region);
  if (hop === undefined) throw new Error(`no hop in region ${region}`);
  return hop;
}

/** The median of per-window ratios, as a percentage, and their range. */
function describeRatios(ratios: readonly number[]): string {
  const pct = (r: number) => `${(100 * r).toFixed(0)}%`;
  return `${pct(median(ratios))} (${pct(Math.min(...ratios))}–${pct(Math.max(...ratios))})`;
}

function describeStatuses(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
}

function subtract(
  after: Readonly<Record<string, number>>,
  before: Readonly<Record<string, number>>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]),
  );
}

/** pino lines at warn or above in a hop's output tail: their messages, with the error's. */
function warningsOf(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { message?: string; errno?: number };
      };
      if ((entry.level ?? 0) < 40) return [];
      const cause = entry.err?.message;
      const errno = entry.err?.errno === undefined ? '' : `errno ${entry.err.errno}: `;
      return [
        `${entry.msg ?? line}${cause === undefined ? '' : ` (${errno}${cause.slice(0, 160)})`}`,
      ];
    } catch {
      return [];
    }
  });
}

/** Distinct messages with their counts. */
/** Distinct messages, each with how often and where (which hops) it was logged. */
function summarize(warnings: readonly { message: string; where: string }[]): string {
  const byMessage = new Map<string, string[]>();
  for (const { message, where } of warnings) {
    byMessage.set(message, [...(byMessage.get(message) ?? []), where]);
  }
  return [...byMessage]
    .map(
      ([message, wheres]) => `${wheres.length} × "${message}" (${[...new Set(wheres)].join(', ')})`,
    )
    .join('; ');
}

function clientCounts(text: string): number[] {
  const counts = text.split(',').map((part) => Number(part.trim()));
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new Error(`BENCH_REGIONS_CLIENTS must be positive integers, comma-separated: ${text}`);
  }
  return counts;
}

/**
 * fetch, sent again once if the connection was lost before any answer: undici reuses an
 * idle keep-alive connection that hop may close at that moment (seen: "other side closed"
 * on the first request after a pause). Nothing was answered, so nothing was done twice.
 */
async function fetchOnce(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
}

/** Polls `check` every 100 ms until it holds; fails after WAIT_MS. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops the regions (every process in them, their namespaces and folders: the harness's
 * cleanups), removes the cpu groups and the temp folder, once; says what is left.
 */
function cleanUp(): Promise<string> {
  cleaned ??= (async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        progress(`cleanup failed: ${String(error)}`);
      }
    }
    // Whatever a failed start left (the harness names all of it after this process).
    for (const line of spawnSyncLines('ip', ['netns', 'list'])) {
      const netns = line.split(' ')[0] ?? '';
      if (netns.startsWith(`hop-${process.pid}-`)) deleteNamespace(netns);
    }
    for (const match of spawnSyncLines('ip', ['-o', 'link', 'show'])
      .join('\n')
      .matchAll(new RegExp(`^\\d+: (hr${process.pid}-\\d+-\\d+)[@:]`, 'gm'))) {
      spawnSync('ip', ['link', 'delete', match[1] as string], { stdio: 'ignore' });
    }
    groups?.remove();
    rmSync(dir, { recursive: true, force: true });
    const left = spawnSyncLines('ip', ['netns', 'list']).filter((line) =>
      line.startsWith(`hop-${process.pid}-`),
    );
    return `both sets stopped (every process in their namespaces killed), ${left.length === 0 ? 'no namespace left' : `namespaces LEFT: ${left.join(', ')}`}, cpu groups and temporary folders removed.`;
  })();
  return cleaned;
}

function spawnSyncLines(command: string, args: readonly string[]): string[] {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return (result.stdout ?? '').split('\n').filter((line) => line !== '');
}

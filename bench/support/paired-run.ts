import type { DriverReport } from './driver-report.js';
import { CpuShareGroups } from './cpu-share-groups.js';
import { residentMb } from './process-memory.js';
import { progress } from './report.js';
import type { Server } from './servers.js';
import { stopProcess } from './stop-process.js';

/**
 * One side of a pair: a server and the load that drives it. Both sides get the same load
 * shape; each has its own load generator (on the load core) and its own port.
 */
export interface PairSide {
  readonly label: string;
  /**
   * Starts this side's server with `inGroup` applied to its command, which puts it (all its
   * threads) in this side's cpu cgroup; startServer pins it to the server core.
   */
  readonly start: (inGroup: (command: readonly string[]) => string[]) => Promise<Server>;
  /** Drives it for `seconds`, closed or open loop. */
  readonly drive: (seconds: number) => Promise<DriverReport>;
}

interface PairedOptions<Extra> {
  readonly sides: readonly [PairSide, PairSide];
  /** Process pairs, each started afresh (V8 settles per process start: BENCHMARKS.md). */
  readonly pairs: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Read from both servers after a pair's rounds, before they stop (counters, metrics). */
  readonly afterPair?: (servers: readonly [Server, Server]) => Promise<Extra>;
  /** For progress lines. */
  readonly name: string;
}

export interface PairedResult<Extra> {
  /** Per pair, the mean over its rounds of side 0's req/s over side 1's in the same window. */
  readonly ratios: readonly number[];
  /** Every measured window, per side. */
  readonly windows: readonly [readonly DriverReport[], readonly DriverReport[]];
  /** Per side, each pair's server's resident memory after its rounds, MB. */
  readonly rssMb: readonly [readonly number[], readonly number[]];
  readonly extras: readonly Extra[];
  /** Whether each side had its own cpu cgroup (else the scheduler was fair per thread). */
  readonly cgroups: boolean;
}

/**
 * The paired method: both servers on the server core at the same time, each in a cpu
 * cgroup of equal weight (half the core each, its threads included), each driven by its
 * own load generator, every window measuring both at once. This VM's host takes CPU away
 * for seconds at a time (steal), so two servers measured one after the other differ by up
 * to 30% with no change at all; measured together, whatever the host does falls on both,
 * and their ratio holds within a few %. Each pair is started afresh; which side starts
 * first alternates from pair to pair.
 */
export async function runPaired<Extra>(
  options: PairedOptions<Extra>,
): Promise<PairedResult<Extra>> {
  const groups = CpuShareGroups.create(2);
  const inGroup = (index: number) => (command: readonly string[]) =>
    groups === null ? [...command] : groups.wrap(index, command);
  const ratios: number[] = [];
  const windows: [DriverReport[], DriverReport[]] = [[], []];
  const rssMb: [number[], number[]] = [[], []];
  const extras: Extra[] = [];
  const [first, second] = options.sides;
  try {
    for (let pair = 0; pair < options.pairs; pair++) {
      const servers: Server[] = [];
      try {
        // Side 0's server starts first in even pairs, side 1's in odd ones.
        const order = pair % 2 === 0 ? [0, 1] : [1, 0];
        for (const index of order) {
          const side = options.sides[index] as PairSide;
          servers[index] = await side.start(inGroup(index));
        }
        const pairOf = servers as unknown as readonly [Server, Server];
        const both = (seconds: number) =>
          Promise.all([first.drive(seconds), second.drive(seconds)] as const);
        await both(options.warmupSeconds);
        const pairRatios: number[] = [];
        for (let round = 0; round < options.rounds; round++) {
          const [a, b] = await both(options.seconds);
          windows[0].push(a);
          windows[1].push(b);
          pairRatios.push(b.rps > 0 ? a.rps / b.rps : 0);
        }
        rssMb[0].push(residentMb(pairOf[0].child.pid ?? 0));
        rssMb[1].push(residentMb(pairOf[1].child.pid ?? 0));
        if (options.afterPair !== undefined) extras.push(await options.afterPair(pairOf));
        ratios.push(pairRatios.reduce((total, ratio) => total + ratio, 0) / pairRatios.length);
        progress(
          `${options.name}: pair ${pair + 1} of ${options.pairs}, ${first.label} / ${second.label} ${(100 * (ratios.at(-1) ?? 0)).toFixed(1)}%`,
        );
      } finally {
        await Promise.all(servers.filter(Boolean).map((server) => stopProcess(server.child)));
      }
    }
  } finally {
    groups?.remove();
  }
  return { ratios, windows, rssMb, extras, cgroups: groups !== null };
}

/** The method, in words, for a report. */
export function describePairing(result: { readonly cgroups: boolean }, loads: string): string {
  const groups = result.cgroups
    ? 'each in a cpu cgroup of equal weight (cpu.shares 1024: half the core each, all its threads included)'
    : 'WITHOUT cpu cgroups (none could be made: the scheduler was fair per thread, so a server with more busy threads took CPU from the other)';
  return `Paired: both servers on the server core at the same time, ${groups}, ${loads}; every window measures both at once, so steal and other work on the machine fall on both. Each pair of processes is started afresh, warmed together, then measured in rounds.`;
}

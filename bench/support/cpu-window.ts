import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds } from './process-memory.js';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** How often tracked processes are sampled, so one that exits keeps its last figure. */
const SAMPLE_MS = 200;

/** CPU over a window, per group of processes, per second of the window. */
export interface CpuUse<Group extends string> {
  readonly seconds: number;
  /** User + system CPU seconds per second, per group. */
  readonly groups: Readonly<Record<Group, number>>;
  /**
   * The machine's user and system time (all cores) not used by any tracked process nor
   * this one: other work on the machine, and untracked helpers.
   */
  readonly others: number;
  /** Interrupt and softirq time, all cores: mostly the kernel moving loopback packets. */
  readonly softirq: number;
  /** The share of the machine's time its VM host took (steal), in %. */
  readonly stealPercent: number;
}

/**
 * Measures the CPU of processes by group, from /proc, between start() and stop(): what the
 * servers under test used, what the load generator used, and what everything else on the
 * machine did meanwhile (another bench or test run competing for the same cores).
 */
export class CpuWindow<Group extends string> {
  readonly #groups: readonly Group[];
  readonly #base = new Map<number, number>();
  readonly #last = new Map<number, number>();
  readonly #groupOf = new Map<number, Group>();
  readonly #watched: { group: Group; pids: () => readonly number[] }[] = [];
  readonly #startTicks = machineTicks();
  readonly #startSelf = process.cpuUsage();
  readonly #started = performance.now();
  readonly #timer = setInterval(() => this.#sample(), SAMPLE_MS);

  constructor(groups: readonly Group[]) {
    this.#groups = groups;
  }

  /** Counts `pid`'s CPU from now on (from zero: all of it, for a process started now). */
  track(group: Group, pid: number | undefined, fromZero = false): void {
    if (pid === undefined || pid === 0 || this.#groupOf.has(pid)) return;
    const now = cpuSeconds(pid);
    this.#groupOf.set(pid, group);
    this.#base.set(pid, fromZero ? 0 : now);
    this.#last.set(pid, now);
  }

  /**
   * Tracks the processes `pids` lists now, and from each sample on any new one it lists,
   * from zero (e.g. a database's backends, which come and go with its clients' pools).
   */
  watch(group: Group, pids: () => readonly number[]): void {
    for (const pid of pids()) this.track(group, pid);
    this.#watched.push({ group, pids });
  }

  stop(): CpuUse<Group> {
    this.#sample();
    clearInterval(this.#timer);
    const seconds = (performance.now() - this.#started) / 1000;
    const end = machineTicks();
    const self = process.cpuUsage(this.#startSelf);
    const groups = Object.fromEntries(this.#groups.map((group) => [group, 0])) as Record<
      Group,
      number
    >;
    let tracked = (self.user + self.system) / 1e6;
    for (const [pid, group] of this.#groupOf) {
      const used = (this.#last.get(pid) ?? 0) - (this.#base.get(pid) ?? 0);
      groups[group] += used / seconds;
      tracked += used;
    }
    const total = end.total - this.#startTicks.total;
    return {
      seconds,
      groups,
      others: Math.max(0, end.busy - this.#startTicks.busy - tracked) / seconds,
      softirq: (end.softirq - this.#startTicks.softirq) / seconds,
      stealPercent: total > 0 ? (100 * (end.steal - this.#startTicks.steal)) / total : 0,
    };
  }

  #sample(): void {
    for (const { group, pids } of this.#watched) {
      for (const pid of pids()) this.track(group, pid, true);
    }
    for (const [pid, seconds] of this.#last)
      this.#last.set(pid, Math.max(seconds, cpuSeconds(pid)));
  }
}

/** The children of `parent` (e.g. a postmaster's backends), from /proc. */
export function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (in parentheses, may hold spaces): state, then ppid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** The parent of `pid`, from /proc; 0 when it is gone. */
export function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/**
 * /proc/stat's first line, in seconds: busy (user, nice, system: what processes are
 * charged), interrupts and softirqs, steal, and all of it.
 */
function machineTicks(): { busy: number; softirq: number; steal: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system;
  return {
    busy: busy / CLOCK_TICKS,
    softirq: (irq + softirq) / CLOCK_TICKS,
    steal: steal / CLOCK_TICKS,
    total: (busy + irq + softirq + idle + iowait + steal) / CLOCK_TICKS,
  };
}

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The cgroup v1 cpu controller, where this machine mounts it. */
const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';
/** cgroup v1's default weight: both groups get it, so each gets half a busy core. */
const EQUAL_SHARES = '1024';
/** How long remove() waits for killed processes to leave a group. */
const REMOVE_WAIT_MS = 3_000;

/**
 * Linux cpu cgroups of equal weight, one per server, so that two servers on one core get
 * half of it each, whatever number of threads each runs. Without them the scheduler is fair
 * per thread: a server's second thread (hop's aggregator) would take its CPU out of both
 * servers' time, and the comparison would charge half of it to the other one.
 */
export class CpuShareGroups {
  readonly #paths: string[];

  private constructor(paths: string[]) {
    this.#paths = paths;
  }

  /**
   * `count` groups, made now under names of this process's own (so two benches never share
   * one), and removed when it exits if remove() was not called; null where cgroups cannot
   * be made (no v1 cpu controller, no root).
   */
  static create(count: number): CpuShareGroups | null {
    if (!existsSync(CPU_CONTROLLER)) return null;
    const paths = Array.from({ length: count }, (_, index) =>
      join(CPU_CONTROLLER, `hop-bench-${process.pid}-${index}`),
    );
    const groups = new CpuShareGroups(paths);
    try {
      for (const path of paths) {
        mkdirSync(path, { recursive: true });
        writeFileSync(join(path, 'cpu.shares'), EQUAL_SHARES);
      }
    } catch {
      groups.remove();
      return null;
    }
    // On the way out, whichever exit handler runs first: what is still inside is ours.
    process.on('exit', () => {
      groups.killMembers();
      groups.remove();
    });
    return groups;
  }

  /** `command`, run inside group `index`: the shell joins it, then becomes the command. */
  wrap(index: number, command: readonly string[]): string[] {
    const path = this.#paths[index];
    if (path === undefined) throw new Error(`no cpu group ${index}`);
    return ['sh', '-c', `echo $$ > ${join(path, 'cgroup.procs')} && exec "$@"`, 'sh', ...command];
  }

  /**
   * Removes the groups, waiting (synchronously, so it also works on exit) up to
   * REMOVE_WAIT_MS for processes just killed to leave them. Safe to call twice.
   */
  remove(): void {
    const deadline = Date.now() + REMOVE_WAIT_MS;
    for (const path of this.#paths) {
      while (existsSync(path)) {
        try {
          rmdirSync(path);
        } catch {
          if (Date.now() >= deadline || !hasProcesses(path)) break;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
      }
    }
  }

  /** SIGKILLs every process still in a group (the servers this bench put there). */
  killMembers(): void {
    for (const path of this.#paths) {
      for (const pid of members(path)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    }
  }
}

function hasProcesses(path: string): boolean {
  return members(path).length > 0;
}

function members(path: string): number[] {
  try {
    return readFileSync(join(path, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}

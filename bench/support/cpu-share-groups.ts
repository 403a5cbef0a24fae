import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The cgroup v1 cpu controller, where this machine mounts it. */
const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';

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

  /** The groups, made now; null where cgroups cannot be made (no v1 cpu controller, no root). */
  static create(names: readonly string[]): CpuShareGroups | null {
    if (!existsSync(CPU_CONTROLLER)) return null;
    const paths = names.map((name) => join(CPU_CONTROLLER, name));
    try {
      for (const path of paths) {
        mkdirSync(path, { recursive: true });
        writeFileSync(join(path, 'cpu.shares'), '1024');
      }
    } catch {
      return null;
    }
    return new CpuShareGroups(paths);
  }

  /** `command`, run inside group `index`: the shell joins it, then becomes the command. */
  wrap(index: number, command: readonly string[]): string[] {
    const path = this.#paths[index];
    if (path === undefined) throw new Error(`no cpu group ${index}`);
    return ['sh', '-c', `echo $$ > ${join(path, 'cgroup.procs')} && exec "$@"`, 'sh', ...command];
  }

  /** Removes the groups (their processes must have exited). */
  remove(): void {
    for (const path of this.#paths) {
      try {
        rmdirSync(path);
      } catch {
        // Still in use or already gone: the kernel keeps an empty group harmlessly.
      }
    }
  }
}

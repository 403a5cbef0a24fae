import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuShareGroups } from './cpu-share-groups.js';

/** Where this machine mounts the cgroup v1 cpu controller (as cpu-share-groups.ts). */
const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';

/**
 * Moves running processes into cpu group `index` of `groups`: for servers that something
 * else started (bench/regions-bench.ts: the region harness's Galera nodes, Redis, NATS, the
 * WAN hub and the hops, found by network namespace), which CpuShareGroups.wrap cannot put
 * there at their start. The group's folder is read from /proc/self/cgroup of a shell that
 * wrap() puts in it, so CpuShareGroups keeps its names to itself. Threads follow their
 * process (cgroup.procs); children started later inherit the group. Returns how many moved.
 */
export function moveIntoCpuGroup(
  groups: CpuShareGroups,
  index: number,
  pids: readonly number[],
): number {
  const [file, ...args] = groups.wrap(index, ['cat', '/proc/self/cgroup']);
  const own = execFileSync(file as string, args, { encoding: 'utf8' });
  // cgroup v1 lines read `<id>:<controllers, comma-separated>:<path>`.
  const path = own
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields.length >= 3 && (fields[1] ?? '').split(',').includes('cpu'))
    ?.slice(2)
    .join(':');
  if (path === undefined) throw new Error(`no cpu cgroup in /proc/self/cgroup:\n${own}`);
  let moved = 0;
  for (const pid of pids) {
    try {
      // One pid a write: the kernel reads one per write(2).
      writeFileSync(join(CPU_CONTROLLER, path, 'cgroup.procs'), String(pid));
      moved++;
    } catch {
      // Gone meanwhile (a short-lived helper in the namespace).
    }
  }
  return moved;
}

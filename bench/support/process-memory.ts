import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident memory of a process (VmRSS), in MB; 0 when it is gone or /proc is missing. */
export function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

let ticksPerSecond: number | undefined;

/**
 * CPU time a process has used so far, user and system, in seconds (/proc/<pid>/stat, in
 * clock ticks); 0 when it is gone or /proc is missing.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, and it may hold spaces) come fields 3 on:
    // utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

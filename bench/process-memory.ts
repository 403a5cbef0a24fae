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

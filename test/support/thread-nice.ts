import { readdirSync, readFileSync } from 'node:fs';

/** The nice value of each thread of process `pid` (Linux: /proc/<pid>/task/<tid>/stat). */
export function threadNiceValues(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: the 17th is the nice value.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './build-stamp.js';

/**
 * Copies this checkout's files (tracked ones, and new ones git does not ignore: no
 * node_modules, no build) into `target`, emptied first: a fresh clone, as far as hop's
 * files go.
 */
export function copyCheckout(target: string): void {
  rmSync(target, { recursive: true, force: true });
  const listed = spawnSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0')) {
    // node_modules: a worktree's may be a symlink git does not ignore.
    if (file === '' || file === 'node_modules' || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(ROOT, file), join(target, file));
  }
}

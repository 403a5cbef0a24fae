import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareNpmStart } from './servers.js';

/** A checkout of hop whose `npm start` a bench can run. */
export interface Checkout {
  readonly root: string;
  /** What the report calls it: the ref or directory given, and its commit. */
  readonly label: string;
}

/** What a hop is built from: a change elsewhere (BENCHMARKS.md, say) does not make it another hop. */
const HOP_SOURCES = ['src', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** This checkout: its commit, and whether hop's sources differ from it. */
export function thisCheckout(root: string): Checkout {
  return { root, label: `this checkout, ${describeCommit(root)}` };
}

/**
 * Another hop to pair with this one: a directory holding a checkout (used as it is, with
 * this checkout's node_modules linked in if it has none), or a git ref of this repository,
 * exported with `git archive` into `scratchDir` (no worktree is made). Either way, what its
 * own `npm start` needs first (its prestart, and a build when it runs compiled) is done.
 */
export function prepareCheckout(refOrDir: string, root: string, scratchDir: string): Checkout {
  const checkout = existsSync(refOrDir)
    ? { root: resolve(refOrDir), label: `${refOrDir}, ${describeCommit(resolve(refOrDir))}` }
    : exportRef(refOrDir, root, scratchDir);
  const modules = join(checkout.root, 'node_modules');
  if (!existsSync(modules)) symlinkSync(realpathSync(join(root, 'node_modules')), modules);
  prepareNpmStart(checkout.root);
  return checkout;
}

function exportRef(ref: string, root: string, scratchDir: string): Checkout {
  const commit = git(root, 'rev-parse', '--verify', `${ref}^{commit}`);
  const target = join(scratchDir, `checkout-${commit.slice(0, 12)}`);
  mkdirSync(target, { recursive: true });
  execFileSync('sh', ['-c', 'git archive "$1" | tar -x -C "$2"', 'sh', commit, target], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const short = commit.slice(0, 7);
  return { root: target, label: commit.startsWith(ref) ? short : `${ref}, ${short}` };
}

function describeCommit(root: string): string {
  try {
    const commit = git(root, 'rev-parse', '--short', 'HEAD');
    const changed =
      git(root, 'status', '--porcelain', '--untracked-files=no', '--', ...HOP_SOURCES) !== '';
    return changed ? `${commit} with uncommitted changes to hop's sources` : commit;
  } catch {
    return 'not a git checkout';
  }
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

import type { TestContext } from 'node:test';
import { startHop, type ServeProcess } from './hop-process.js';

export type Defer = (cleanup: () => unknown) => void;

/**
 * Clean-ups run last-registered first, after the test, each even if one before it threw:
 * hop is killed before its database stops, and the database before its folder goes.
 */
export function deferrer(t: TestContext): Defer {
  const cleanups: (() => unknown)[] = [];
  t.after(async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  });
  return (cleanup) => cleanups.push(cleanup);
}

/** `hop serve`, killed (SIGKILL) by the clean-ups if it is still running then. */
export async function startKilledAfter(
  defer: Defer,
  env: Record<string, string>,
): Promise<ServeProcess> {
  const hop = await startHop(env);
  defer(async () => {
    if (hop.child.exitCode !== null || hop.child.signalCode !== null) return;
    hop.child.kill('SIGKILL');
    await hop.exited;
  });
  return hop;
}

import { connect } from 'node:net';
import type { TestContext } from 'node:test';

export const REDIS_URL = process.env['HOP_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Whether the shared Redis answers. Under CI=true an unreachable server fails the test
 * (standards: never a silent skip in CI); elsewhere the test is skipped with a message.
 */
export async function requireRedis(t: TestContext): Promise<boolean> {
  const url = new URL(REDIS_URL);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect(Number(url.port || 6379), url.hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
  if (reachable) return true;
  if (process.env['CI'] === 'true') throw new Error(`Redis at ${REDIS_URL} is unreachable`);
  t.skip(`Redis at ${REDIS_URL} is unreachable; start it to run this test`);
  return false;
}

/** A key prefix no other run uses. */
export function uniquePrefix(): string {
  return `hop-test-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;
}

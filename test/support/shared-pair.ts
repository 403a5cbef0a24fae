import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { REDIS_URL, uniquePrefix } from './require-redis.js';
import { startTestServer, type TestServer } from './test-server.js';

export interface SharedPair {
  readonly a: TestServer;
  readonly b: TestServer;
  /** This pair's Redis key prefix. */
  readonly prefix: string;
  /** A plain connection to the shared Redis, for looking at the pair's keys. */
  readonly admin: Redis;
}

/**
 * Two instances on one SQLite data dir and the shared Redis, under a key prefix of their
 * own; after the test both close, the prefix's keys go and the folder is removed.
 */
export async function startSharedPair(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<SharedPair> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-shared-'));
  const prefix = uniquePrefix();
  const shared = { HOP_REDIS_URL: REDIS_URL, HOP_REDIS_PREFIX: prefix, ...env };
  const a = await startTestServer(shared, { dataDir });
  const b = await startTestServer(shared, { dataDir });
  const admin = new Redis(REDIS_URL);
  t.after(async () => {
    await a.close();
    await b.close();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { a, b, prefix, admin };
}

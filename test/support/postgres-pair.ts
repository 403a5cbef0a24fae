import type { TestContext } from 'node:test';
import { dropSchema, POSTGRES_URL, uniqueSchema } from './require-postgres.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * Two instances on one PostgreSQL schema of their own (and whatever else `env` shares, such
 * as Redis): after the test both close and the schema is dropped.
 */
export async function startPostgresPair(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<{ readonly a: TestServer; readonly b: TestServer; readonly schema: string }> {
  const schema = uniqueSchema();
  const shared = { HOP_DATABASE_URL: POSTGRES_URL, HOP_DATABASE_SCHEMA: schema, ...env };
  const a = await startTestServer(shared);
  const b = await startTestServer(shared);
  t.after(async () => {
    await a.close();
    await b.close();
    await dropSchema(schema);
  });
  return { a, b, schema };
}

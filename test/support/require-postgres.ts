import { connect } from 'node:net';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import { uniqueTestName } from './reused-namespaces.js';

export const POSTGRES_URL =
  process.env['HOP_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the shared PostgreSQL accepts connections on its port. */
export async function postgresReachable(url: string = POSTGRES_URL): Promise<boolean> {
  const parsed = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = connect(Number(parsed.port || 5432), parsed.hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * Registers the suites of `register` when PostgreSQL answers. Under CI=true an unreachable
 * server is a failing test (never a silent skip in CI); elsewhere one skipped test says why.
 */
export async function whenPostgres(name: string, register: () => void): Promise<void> {
  if (await postgresReachable()) {
    register();
    return;
  }
  const why = `PostgreSQL at ${POSTGRES_URL} is unreachable`;
  if (process.env['CI'] === 'true') {
    test(name, () => {
      throw new Error(why);
    });
  } else {
    test(name, (t) => {
      t.skip(`${why}; start it to run these tests`);
    });
  }
}

/** A schema name no other run uses. */
export const uniqueSchema = uniqueTestName;

/**
 * Drops a test's schema and everything in it. A test that failed while a connection of its
 * own held a transaction open on the schema (a lock, an uncommitted row) would otherwise
 * make the DROP wait forever: its cleanup is queued behind this one. After a short wait the
 * sessions holding locks in the schema are ended, and the DROP tried again.
 */
export async function dropSchema(schema: string, url: string = POSTGRES_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET lock_timeout = '3s'`);
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        return;
      } catch (error) {
        // 55P03: lock_not_available.
        if ((error as { code?: string }).code !== '55P03' || attempt === 3) throw error;
        await client.query(
          `SELECT pg_terminate_backend(l.pid)
           FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
             JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND l.pid <> pg_backend_pid()`,
          [schema],
        );
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Whether the shared PostgreSQL answers, for one test. Under CI=true an unreachable server
 * fails the test; elsewhere the test is skipped with a message.
 */
export async function requirePostgres(t: TestContext): Promise<boolean> {
  if (await postgresReachable()) return true;
  const why = `PostgreSQL at ${POSTGRES_URL} is unreachable`;
  if (process.env['CI'] === 'true') throw new Error(why);
  t.skip(`${why}; start it to run this test`);
  return false;
}

/** A schema for this test alone, dropped after it (and after its processes have stopped). */
export function testSchema(t: TestContext): string {
  const schema = uniqueSchema();
  t.after(() => dropSchema(schema));
  return schema;
}

/** Runs one query on the shared PostgreSQL with `schema` on the search path. */
export async function queryPostgres<R extends pg.QueryResultRow>(
  schema: string,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`SET search_path = ${schema}`);
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

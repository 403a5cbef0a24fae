import { connect } from 'node:net';
import { test, type TestContext } from 'node:test';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { uniqueTestName } from './reused-namespaces.js';

/** The MariaDB the tests use: root without a password on loopback. */
export const MARIADB_URL = process.env['HOP_TEST_MARIADB_URL'] ?? 'mysql://root@127.0.0.1:3306';

/** Whether MariaDB accepts connections on its port. */
export async function mariadbReachable(url: string = MARIADB_URL): Promise<boolean> {
  const parsed = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = connect(Number(parsed.port || 3306), parsed.hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * Whether MariaDB answers, for one test. Under CI=true an unreachable server fails the test
 * (never a silent skip in CI); elsewhere the test is skipped with a message.
 */
export async function requireMariadb(t: TestContext): Promise<boolean> {
  if (await mariadbReachable()) return true;
  const why = `MariaDB at ${MARIADB_URL} is unreachable`;
  if (process.env['CI'] === 'true') throw new Error(why);
  t.skip(`${why}; start it to run this test`);
  return false;
}

/**
 * A database for this test alone (`<prefix>_<random>`), dropped after it; returns its URL and
 * a connection to it (closed after), on which the test builds its tables.
 */
export async function testMariadbDatabase(
  t: TestContext,
  prefix: string,
): Promise<{ url: string; connection: Connection }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await createConnection({ uri: MARIADB_URL });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  t.after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  });
  const url = `${MARIADB_URL}/${name}`;
  const connection = await createConnection({ uri: url, multipleStatements: true });
  t.after(() => connection.end());
  return { url, connection };
}

/**
 * Registers the suites of `register` when MariaDB answers. Under CI=true an unreachable
 * server is a failing test (never a silent skip in CI); elsewhere one skipped test says why.
 */
export async function whenMariadb(name: string, register: () => void): Promise<void> {
  if (await mariadbReachable()) {
    register();
    return;
  }
  const why = `MariaDB at ${MARIADB_URL} is unreachable`;
  test(name, (t) => {
    if (process.env['CI'] === 'true') throw new Error(why);
    t.skip(`${why}; start it to run these tests`);
  });
}

/** A database name no other run uses. */
export const uniqueDatabase = uniqueTestName;

/** The URL of `database` on the test server. */
export function mariadbUrlOf(database: string): string {
  return `${MARIADB_URL}/${database}`;
}

/**
 * Drops a test's database. Sessions a failed test left holding locks in it would make the
 * DROP wait: they are ended first.
 */
export async function dropDatabase(database: string): Promise<void> {
  const admin = await createConnection({ uri: MARIADB_URL });
  try {
    await endSessionsIn(admin, database);
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  } finally {
    await admin.end();
  }
}

/** Ends every other session in `database`: a failed test's open transaction holds locks. */
export async function endSessionsIn(admin: Connection, database: string): Promise<void> {
  const [sessions] = await admin.query<RowDataPacket[]>(
    'SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()',
    [database],
  );
  for (const session of sessions) {
    await admin.query(`KILL ${Number(session['id'])}`).catch(() => undefined);
  }
}

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectForMigrations, openPgPool } from '../../src/adapters/postgres/pg-pool.js';
import { POSTGRES_URL, whenPostgres } from '../support/require-postgres.js';

await whenPostgres('openPgPool on PostgreSQL', () => {
  describe('openPgPool on PostgreSQL', () => {
    test('a connection dropped while checked out and between statements ends no thread', async (t) => {
      const idleErrors: Error[] = [];
      const pool = openPgPool({
        url: POSTGRES_URL,
        schema: 'public',
        maxConnections: 2,
        statementTimeoutMs: 0,
        connectTimeoutMs: 5_000,
        onIdleError: (error) => idleErrors.push(error),
        applicationName: 'hop-test-pg-pool',
      });
      t.after(() => pool.end());
      // Checked out and holding no statement: neither the pool's listener nor a query's.
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = new Promise((resolve) => client.once('end', resolve));
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      // Unheard, the server's error would have been thrown from the socket's event by now.
      await ended;
      await assert.rejects(client.query('SELECT 1'), 'its next statement fails');
      client.release(true);
      const after = await pool.query<{ one: number }>('SELECT 1 AS one');
      assert.equal(after.rows[0]?.one, 1, 'the pool serves on with a new connection');
      assert.deepEqual(idleErrors, [], 'a checked-out connection is no idle one');
    });

    test("the migrations' connection, dropped between statements, fails its next one", async (t) => {
      const client = await connectForMigrations(POSTGRES_URL);
      t.after(() => client.end().catch(() => undefined));
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = new Promise((resolve) => client.once('end', resolve));
      const other = await connectForMigrations(POSTGRES_URL);
      t.after(() => other.end());
      await other.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await ended;
      await assert.rejects(client.query('SELECT 1'));
    });
  });
});

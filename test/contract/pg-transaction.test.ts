import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { inTransaction } from '../../src/adapters/postgres/pg-transaction.js';
import { POSTGRES_URL, whenPostgres } from '../support/require-postgres.js';

await whenPostgres('inTransaction on PostgreSQL', () => {
  describe('inTransaction on PostgreSQL', () => {
    test('a connection lost between two statements fails the transaction, not the process', async (t) => {
      const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
      pool.on('error', () => undefined);
      t.after(() => pool.end());
      await assert.rejects(
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          const ended = new Promise((resolve) => client.once('end', resolve));
          // From the pool's other connection: this one is ended while no statement runs.
          await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
          await ended;
        }),
      );
      const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
      assert.equal(rows[0]?.one, 1, 'the pool serves on');
    });
  });
});

import type pg from 'pg';

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when
 * it throws. A connection that failed mid-transaction is destroyed, not put back.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client has no 'error' listener (the pool's is for idle ones): a
  // connection lost between two statements would throw from the socket's event, uncaught,
  // and end the thread. Its next statement fails instead, and it is destroyed on release.
  const lost = (error: Error) => {
    broken = error;
  };
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}

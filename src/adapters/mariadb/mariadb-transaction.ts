import type { Pool, PoolConnection } from 'mysql2/promise';
import { lostAConflict } from './mariadb-errors.js';

/** Runs of a transaction that lost a certification conflict or a deadlock, in all. */
const ATTEMPTS = 4;

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when
 * it throws. A transaction that lost a deadlock, or Galera's certification of a write set
 * that touched the same rows as another node's (both answer 1213, at any statement or at
 * COMMIT; 1711 when Galera aborts it inside a trigger: lostAConflict), is run again from the start: `work` must read what it decides on inside the
 * transaction, so a rerun decides again on what won (ADR 0140). A connection that failed
 * mid-transaction is destroyed, not put back.
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (connection: PoolConnection) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(pool, work);
    } catch (error) {
      if (!lostAConflict(error) || attempt === ATTEMPTS) throw error;
      // A little apart, so two nodes' reruns do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * Runs one statement outside a transaction again when it lost a certification conflict or a
 * deadlock (lostAConflict). Galera reruns an autocommit statement once by itself
 * (wsrep_retry_autocommit); twenty claims of one alias from two regions can lose twice, and
 * a loss must end as the statement's own answer (a taken code: 409), never a 503.
 */
export async function rerunOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!lostAConflict(error) || attempt === ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

async function once<T>(pool: Pool, work: (connection: PoolConnection) => Promise<T>): Promise<T> {
  const connection = await pool.getConnection();
  let broken = false;
  try {
    await connection.query('START TRANSACTION');
    const result = await work(connection);
    await connection.query('COMMIT');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    if (broken) connection.destroy();
    else connection.release();
  }
}

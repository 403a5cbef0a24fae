import type { Pool, PoolConnection, QueryResult, QueryValues } from 'mysql2/promise';
import { abortedInTrigger, lostAConflict } from './mariadb-errors.js';

/** Runs of a transaction that lost a certification conflict or a deadlock, in all. */
const ATTEMPTS = 4;

/**
 * Runs `run` again when it lost a deadlock or a conflict with another Galera node
 * (lostAConflict: 1213 at any statement or at COMMIT, or a statement Galera aborted inside
 * a trigger), up to ATTEMPTS runs, a little apart so that two nodes' reruns do not
 * collide again in lockstep. `run` must read what it decides on inside itself, so a rerun
 * decides again on what won (ADR 0140). Galera reruns an autocommit statement once by itself
 * (wsrep_retry_autocommit); twenty claims of one alias from two regions can lose twice, and a
 * loss must end as the statement's own answer (a taken code: 409), never a 503.
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

/** One autocommit statement on a connection of its own, run again on a conflict. */
export function queryRerunOnConflict(
  pool: Pool,
  sql: string,
  values: QueryValues,
): Promise<unknown> {
  return rerunOnConflict(() =>
    onOwnConnection(pool, (connection) => connection.query<QueryResult>(sql, values)),
  );
}

/**
 * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when
 * it throws; a transaction that lost a conflict is run again from the start
 * (rerunOnConflict). A connection whose ROLLBACK failed is destroyed, not put back.
 */
export function inTransaction<T>(
  pool: Pool,
  work: (connection: PoolConnection) => Promise<T>,
): Promise<T> {
  return rerunOnConflict(() =>
    onOwnConnection(pool, async (connection, discard) => {
      try {
        await connection.query('START TRANSACTION');
        const result = await work(connection);
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(discard);
        throw error;
      }
    }),
  );
}

/**
 * `use` on a connection taken from the pool, then put back; destroyed instead when `use`
 * called `discard`, or failed with a statement Galera aborted inside a trigger: the regions
 * bench saw every rerun fail the same way while such connections went back to the pool.
 */
async function onOwnConnection<T>(
  pool: Pool,
  use: (connection: PoolConnection, discard: () => void) => Promise<T>,
): Promise<T> {
  const connection = await pool.getConnection();
  let discarded = false;
  const discard = () => {
    discarded = true;
  };
  try {
    return await use(connection, discard);
  } catch (error) {
    if (abortedInTrigger(error)) discard();
    throw error;
  } finally {
    if (discarded) connection.destroy();
    else connection.release();
  }
}

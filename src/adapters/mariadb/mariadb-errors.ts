import { HopError } from '../../domain/errors.js';

/** MariaDB's error numbers hop tells apart (include/mysqld_error.h). */
const MARIADB_ERRORS = {
  duplicateEntry: 1062,
  /** InnoDB's deadlock, and Galera's certification conflict at COMMIT: run it again. */
  deadlock: 1213,
  lockWaitTimeout: 1205,
  /** "WSREP has not yet prepared node for application use": not in the primary component. */
  notPrimaryComponent: 1047,
  statementTimeout: 1969,
} as const;

/**
 * "Unknown trigger has an error in its body: 'Query was empty'": what an INSERT whose link
 * event trigger was running answers when Galera aborts it for another node's conflicting
 * write set (a brute-force abort). MariaDB 10.11 sends it as errno 1064, a parse error,
 * which a statement of hop's never is otherwise: `npm run bench -- regions` saw it in alias
 * races between two regions 50 ms apart, all ten losers of one region answered 503.
 */
const ABORTED_IN_TRIGGER = /has an error in its body/;

/**
 * Whether a statement or transaction lost to another one and may simply run again: InnoDB's
 * deadlock victim, Galera's certification conflict (both 1213), or Galera's abort inside a
 * trigger.
 */
export function lostAConflict(error: unknown): boolean {
  return errnoOf(error) === MARIADB_ERRORS.deadlock || abortedInTrigger(error);
}

/** Galera aborted the statement while its trigger ran (ABORTED_IN_TRIGGER). */
export function abortedInTrigger(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && ABORTED_IN_TRIGGER.test(message);
}

/** The server's error number of a driver error, if it has one. */
function errnoOf(error: unknown): number | undefined {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' ? errno : undefined;
}

export function isDuplicateEntry(error: unknown): boolean {
  return errnoOf(error) === MARIADB_ERRORS.duplicateEntry;
}

/**
 * Runs a database call and turns driver failures (refused connections, statement timeouts,
 * a Galera node cut off from its cluster) into a retryable `store-unavailable`: callers never
 * cache a failure as "not found", and clients get 503 with Retry-After, never a guess.
 */
export async function guardMariaDb<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asStoreUnavailable(operation, error);
  }
}

function asStoreUnavailable(operation: string, error: unknown): Error {
  if (error instanceof HopError) return error;
  const notPrimary = errnoOf(error) === MARIADB_ERRORS.notPrimaryComponent;
  return new HopError(
    'store-unavailable',
    notPrimary
      ? `The link store could not ${operation}: this region is cut off from the others' quorum.`
      : `The link store could not ${operation}.`,
    { retryable: true, retryAfterSeconds: notPrimary ? 5 : 1, cause: error },
  );
}

import { HopError } from '../../domain/errors.js';

/**
 * Runs a synchronous database call and turns driver failures into a retryable
 * `store-unavailable`, so that callers never cache a failure as "not found" and clients
 * never see a driver's message.
 */
export function guardSqlite<T>(operation: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof HopError) throw error;
    throw storeUnavailable(operation, error);
  }
}

/** A driver failure as callers see it: retryable, the driver's message kept as the cause. */
export function storeUnavailable(operation: string, cause: unknown): HopError {
  return new HopError('store-unavailable', `The link store could not ${operation}.`, {
    retryable: true,
    retryAfterSeconds: 1,
    cause,
  });
}

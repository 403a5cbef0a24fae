import { HopError } from '../../domain/errors.js';

/**
 * Runs a database call and turns driver failures (refused connections, statement
 * timeouts, a server shutting down) into a retryable `store-unavailable`, so callers never
 * cache a failure as "not found" and clients never see a driver's message.
 */
export async function guardPg<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asStoreUnavailable(operation, error);
  }
}

export function asStoreUnavailable(operation: string, error: unknown): Error {
  if (error instanceof HopError) return error;
  return new HopError('store-unavailable', `The link store could not ${operation}.`, {
    retryable: true,
    retryAfterSeconds: 1,
    cause: error,
  });
}

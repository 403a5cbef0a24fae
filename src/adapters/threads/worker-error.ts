/**
 * A worker thread's error as text. Errors cross the thread as structured clones: an Error
 * keeps its message, but the driver's SqliteError arrives as a plain object holding only
 * its `code`.
 */
export function describeWorkerError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    if (typeof message === 'string') return message;
    if (typeof code === 'string') return code;
  }
  return String(error);
}

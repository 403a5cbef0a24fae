/**
 * A problem for the operator to fix (an unreachable hop, a refused key, a bad codes file):
 * `hop bench` prints its message as one line and exits 1, never a stack trace.
 */
export class BenchError extends Error {}

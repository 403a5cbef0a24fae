/**
 * `hop links list | head -1`: the reader goes away and the next write fails with EPIPE.
 * The output was wanted no further, so hop exits quietly instead of with a stack trace.
 */
export function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/**
 * Polls `check` until it holds, at most `polls` times 10 ms apart: for effects that cross
 * processes asynchronously (fire-and-forget writes, pub/sub). Bounded, never a timing claim.
 */
export async function eventually(
  check: () => Promise<boolean>,
  what = 'the condition',
  polls = 1000,
): Promise<void> {
  for (let i = 0; i < polls; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} did not happen within ${polls} polls`);
}

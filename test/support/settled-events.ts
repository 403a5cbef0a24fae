import { eventually } from './eventually.js';

interface EventLogReader<E> {
  after(position: string, limit: number): Promise<readonly E[]>;
}

/** Every event after `position`, read in pages of two (so paging is exercised). */
async function readAll<E extends { readonly position: string }>(
  log: EventLogReader<E>,
  position: string,
): Promise<E[]> {
  const events: E[] = [];
  for (let at = position; ;) {
    const page = await log.after(at, 2);
    if (page.length === 0) return events;
    events.push(...page);
    at = page.at(-1)?.position ?? at;
  }
}

/**
 * Every event after `position`, once at least `expected` of them can be read. On
 * PostgreSQL an event is readable only when no older transaction in the cluster is still
 * running (ADR 0127), and the shared server runs other test files' transactions: an event
 * may be held back for a moment, never skipped. A log that shows more than `expected` is
 * returned as it is, for the test's own assertion to name.
 */
export async function readSettled<E extends { readonly position: string }>(
  log: EventLogReader<E>,
  position: string,
  expected: number,
): Promise<E[]> {
  return readUntil(
    log,
    position,
    (events) => events.length >= expected,
    `${expected} events readable after '${position}'`,
  );
}

/** Every event after `position`, once what can be read satisfies `done` (as readSettled). */
export async function readUntil<E extends { readonly position: string }>(
  log: EventLogReader<E>,
  position: string,
  done: (events: readonly E[]) => boolean,
  what: string,
): Promise<E[]> {
  let events: E[] = [];
  await eventually(
    async () => {
      events = await readAll(log, position);
      return done(events);
    },
    what,
    6000,
  );
  return events;
}

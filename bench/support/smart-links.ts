import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { smartColumnOf } from '../../src/adapters/sql/smart-column.js';
import { applyMigrations } from '../../src/adapters/sqlite/sqlite-migrations.js';
import type { LinkRule, SmartOptions } from '../../src/domain/smart/smart-options.js';

/** Where every one of the bench's rules sends a visitor it matches. */
export const RULE_DESTINATION = 'https://example.com/m';
/** The query that matches the bench's query rule (`?src=qr`): the correctness check's. */
export const MATCHING_QUERY = 'src=qr';

const rule = (when: LinkRule['when']): LinkRule => ({
  destination: RULE_DESTINATION,
  statusCode: null,
  when,
});

/**
 * Issue 21's "link with five rules (device, language, country, query, time)": one condition
 * each, none of which a desktop Chrome asking in English without a query matches before
 * 2030, so every rule is evaluated and the link falls through to its destination, the
 * worst case for a link whose rules do not send the visitor elsewhere.
 */
export const FIVE_RULES: SmartOptions = {
  rules: [
    rule({ device: ['mobile'] }),
    rule({ language: ['de'] }),
    rule({ country: ['JP'] }),
    rule({ query: { src: 'qr' } }),
    rule({ after: Date.parse('2030-01-01T00:00:00Z') }),
  ],
  variants: [],
  passwordHash: null,
  maxClicks: null,
  fallbackUrl: null,
  forwardQuery: false,
};

/** The rule set, in words, for a report. */
export function describeRules(smart: SmartOptions): string {
  return smart.rules
    .map((linkRule) => {
      const [[name, value]] = Object.entries(linkRule.when) as [[string, unknown]];
      const shown =
        name === 'after' || name === 'before'
          ? new Date(value as number).toISOString()
          : JSON.stringify(value);
      return `${name} ${shown}`;
    })
    .join('; ');
}

/**
 * Gives the links with these codes `smart`, in a copy of a store no hop has open: hop's
 * migrations first (a store seeded by an older hop may have no `smart` column yet; the hop
 * that opens it later finds them applied), then the column as hop writes it
 * (src/adapters/sql/smart-column.ts) and a new version, as an edit through the API would.
 */
export function makeLinksSmart(
  dataDir: string,
  codes: readonly string[],
  smart: SmartOptions,
): void {
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    applyMigrations(db);
    const update = db.prepare<[string | null, string]>(
      // The domain too: the unique index is on (domain, code), and by code alone each
      // update read the whole table (10,000 of them over a 1M-link store: half an hour).
      "UPDATE links SET smart = ?, version = version + 1 WHERE domain = '' AND code = ?",
    );
    const column = smartColumnOf(smart);
    const updated = db.transaction(() =>
      codes.reduce((total, code) => total + update.run(column, code).changes, 0),
    )();
    if (updated !== codes.length)
      throw new Error(`made ${updated} of ${codes.length} links smart: codes missing from store`);
  } finally {
    db.close();
  }
}

/** A link's destination, read from a store no hop has open. */
export function destinationOf(dataDir: string, code: string): string {
  // Read-write, though it only reads: a read-only handle cannot open a WAL database whose
  // -shm file is gone (as countLinks in ./seeded-store.ts says).
  const db = new Database(join(dataDir, 'hop.db'), { fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT destination FROM links WHERE domain = '' AND code = ?")
      .get(code) as { destination: string } | undefined;
    if (row === undefined) throw new Error(`no link ${code} in ${dataDir}`);
    return row.destination;
  } finally {
    db.close();
  }
}

/**
 * The answer the check expects to a GET of `path`, sent with the load's headers and
 * `headers` on top: a 302 to `location`, with `cacheControl` when given; or a 404.
 */
export type ExpectedAnswer = {
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
} & ({ readonly location: string; readonly cacheControl?: string } | { readonly status: 404 });

/**
 * Fails loudly unless hop on `port` answers each GET (with the load's headers) as
 * expected: run before any window, so a figure is never reported for a link that was not
 * served as the scenario says.
 */
export async function checkAnswers(
  port: number,
  headers: Readonly<Record<string, string>>,
  expected: readonly ExpectedAnswer[],
): Promise<void> {
  for (const answer of expected) {
    const got = await get(port, answer.path, { ...headers, ...answer.headers });
    const problems =
      'status' in answer
        ? [got.status === answer.status ? null : `status ${got.status}, not ${answer.status}`]
        : [
            got.status === 302 ? null : `status ${got.status}, not 302`,
            got.location === answer.location
              ? null
              : `location ${got.location ?? '(none)'}, not ${answer.location}`,
            answer.cacheControl === undefined || got.cacheControl === answer.cacheControl
              ? null
              : `cache-control ${got.cacheControl ?? '(none)'}, not ${answer.cacheControl}`,
          ];
    const found = problems.filter((problem) => problem !== null);
    if (found.length > 0) {
      const sent = Object.entries(answer.headers ?? {}).map(
        ([name, value]) => ` (${name}: ${value})`,
      );
      throw new Error(
        `GET ${answer.path}${sent.join('')} on port ${port} answered ${found.join(', ')}`,
      );
    }
  }
}

function get(
  port: number,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; location?: string; cacheControl?: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume();
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          ...(response.headers.location === undefined
            ? {}
            : { location: response.headers.location }),
          ...(response.headers['cache-control'] === undefined
            ? {}
            : { cacheControl: response.headers['cache-control'] }),
        });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

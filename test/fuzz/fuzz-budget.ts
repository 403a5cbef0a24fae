import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';

/**
 * ADR 0088: the fuzz properties together generate at least 100,000 inputs in every CI run,
 * within a few tens of seconds. The budget below says how many inputs each property gets;
 * each fuzz file ends with a test that checks its properties really were handed that many
 * (so the total is what ran, not what was meant to), and fuzz-budget.test.ts checks the
 * total. Most of it goes to the pure, in-process rules (microseconds an input); the CSV
 * files and the HTTP requests cost milliseconds each and get what the time allows: halved in
 * issue 25, when MariaDB's suites and three simulated regions joined npm test's 10 minutes.
 *
 * FUZZ_SEED replays a run: fast-check prints the seed and path of any failure (so does
 * each file's last test, as a diagnostic). FUZZ_PATH, with --test-name-pattern naming the
 * failed property, goes straight to the counterexample. Without FUZZ_SEED every run draws
 * a fresh seed, so CI explores new inputs each time. FUZZ_SCALE multiplies every budget, for
 * a longer soak on a developer's machine (FUZZ_SCALE=10).
 */
export const MIN_TOTAL_INPUTS = 100_000;

export const FUZZ_BUDGET = {
  'destination-policy': {
    'web URLs: an accepted URL keeps every rule, and is accepted again unchanged': 20_000,
    'hostile URLs: internal hosts in any spelling are refused, the rest keep every rule': 25_000,
    'any string: a verdict, never a throw': 10_000,
    'checkDestinationOrThrow: the normalised URL, or an invalid-destination HopError': 5_000,
  },
  'alias-and-code-format': {
    'assertValidAlias on any string: passes exactly the well-formed, unreserved ones': 15_000,
    'assertValidAlias on near-aliases: passes exactly the well-formed, unreserved ones': 15_000,
    'isReservedAlias ignores case': 5_000,
    'isPossibleCode agrees with ^[A-Za-z0-9._~-]{1,64}$ on every string': 20_000,
  },
  'link-csv': {
    'a well-formed file: every data row is imported or rejected with its line': 500,
    'any bytes: refused as a whole with LinkCsvError, or every row read is accounted for': 500,
  },
  'json-bodies': {
    'POST /v1/links': 1_000,
    'PATCH /v1/links/{id}': 750,
    'POST /v1/keys': 500,
    'POST /admin/session': 500,
    'GET /v1/links query strings': 500,
    'GET /v1/links/{id}/analytics and /qr query strings': 400,
  },
} as const satisfies Record<string, Record<string, number>>;

export type FuzzFile = keyof typeof FUZZ_BUDGET;
export type FuzzProperty<F extends FuzzFile> = keyof (typeof FUZZ_BUDGET)[F] & string;

/** The budget of every property of every file, added up. */
export function totalBudget(): number {
  return Object.values(FUZZ_BUDGET)
    .flatMap((file) => Object.values(file) as number[])
    .reduce((sum, runs) => sum + runs, 0);
}

const SCALE = readNumber('FUZZ_SCALE') ?? 1;
/** One seed for the whole file, so a failure is replayed by one FUZZ_SEED. */
const SEED = readNumber('FUZZ_SEED') ?? Math.floor(Math.random() * 0x1_0000_0000) - 0x8000_0000;
const PATH = process.env['FUZZ_PATH'];

/** Inputs handed to each property's predicate so far, shrinking included. */
const generated = new Map<string, number>();

function readNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, not ${raw}`);
  return value;
}

function runsOf(file: FuzzFile, property: string): number {
  const budget: Readonly<Record<string, number>> = FUZZ_BUDGET[file];
  return Math.max(1, Math.round((budget[property] ?? 0) * SCALE));
}

function parameters<T>(file: FuzzFile, property: string): fc.Parameters<T> {
  const base: fc.Parameters<T> = {
    numRuns: runsOf(file, property),
    seed: SEED,
    // The assertion's message in the report itself: the test runner does not print causes.
    includeErrorInReport: true,
  };
  return PATH === undefined ? base : { ...base, path: PATH };
}

function count(file: FuzzFile, property: string): void {
  const key = `${file}/${property}`;
  generated.set(key, (generated.get(key) ?? 0) + 1);
}

/** A test that runs a synchronous property with its budget; `predicate` fails by throwing. */
export function fuzzTest<F extends FuzzFile, T>(
  file: F,
  property: FuzzProperty<F>,
  inputs: fc.Arbitrary<T>,
  predicate: (input: T) => void,
): void {
  test(property, () => {
    fc.assert(
      fc.property(inputs, (input) => {
        count(file, property);
        predicate(input);
      }),
      parameters(file, property),
    );
  });
}

/** A test that runs an asynchronous property with its budget; `predicate` fails by rejecting. */
export function fuzzTestAsync<F extends FuzzFile, T>(
  file: F,
  property: FuzzProperty<F>,
  inputs: fc.Arbitrary<T>,
  predicate: (input: T) => Promise<void>,
): void {
  test(property, async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        count(file, property);
        await predicate(input);
      }),
      parameters(file, property),
    );
  });
}

/**
 * The last test of a fuzz file: every property of `file` was handed at least its budget
 * (a property that was skipped, or never written, fails here); the counts and the seed
 * are printed as test diagnostics.
 */
export function budgetSpentTest(file: FuzzFile): void {
  test('every property was handed its budget of inputs', (t) => {
    const short: string[] = [];
    let total = 0;
    for (const property of Object.keys(FUZZ_BUDGET[file])) {
      const spent = generated.get(`${file}/${property}`) ?? 0;
      const due = runsOf(file, property);
      t.diagnostic(`${spent} inputs: ${property}`);
      if (spent < due) short.push(`${property}: ${spent} inputs generated, ${due} due`);
      total += spent;
    }
    t.diagnostic(`${total} inputs in ${file} (FUZZ_SEED=${SEED})`);
    assert.deepEqual(short, [], 'properties short of their budget');
  });
}

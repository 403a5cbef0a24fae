import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchError } from './bench-error.js';
import { callHop, problemDetail } from './hop-client.js';

/** The tag of the links `hop bench` creates; later runs reuse them (`GET /v1/links?tag=`). */
export const BENCH_TAG = 'hop-bench';
/** Bench links expire on their own after a week, and the sweeper tidies them away. */
const BENCH_LINK_TTL_SECONDS = 7 * 86_400;
/** A link is reused only while it has at least this long to live: never expiring mid-run. */
const REUSE_MIN_REMAINING_MS = 86_400_000;
/** Creates in flight at once: a few, so that a thousand take a second or two, not minutes. */
const CREATES_IN_FLIGHT = 8;
/** The API's largest page (SPEC §3: limit ≤ 100). */
const PAGE_LIMIT = 100;

export interface BenchLinks {
  readonly codes: readonly string[];
  readonly reused: number;
  readonly created: number;
}

/**
 * `count` active links tagged BENCH_TAG that the key can see: those earlier runs left
 * first, then as many new ones as are missing, created through the running hop's API.
 */
export async function prepareBenchLinks(
  base: string,
  key: string,
  count: number,
  log: (line: string) => void,
): Promise<BenchLinks> {
  const reused = await listBenchCodes(base, key, count);
  const missing = count - reused.length;
  if (missing > 0) {
    log(`creating ${missing} links tagged ${BENCH_TAG} (reusing ${reused.length})`);
  }
  const created = missing > 0 ? await createBenchLinks(base, key, missing, log) : [];
  return { codes: [...reused, ...created], reused: reused.length, created: created.length };
}

async function listBenchCodes(base: string, key: string, count: number): Promise<string[]> {
  const codes: string[] = [];
  const livesUntil = Date.now() + REUSE_MIN_REMAINING_MS;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ tag: BENCH_TAG, state: 'active', limit: `${PAGE_LIMIT}` });
    if (cursor !== null) query.set('cursor', cursor);
    const response = await callHop(base, `/v1/links?${query.toString()}`, { key });
    if (response.status !== 200) {
      throw new BenchError(
        `listing links at ${base} answered ${response.status}: ${await problemDetail(response)}`,
      );
    }
    const page = (await response.json()) as {
      items: { code: string; expires_at: string | null }[];
      next_cursor: string | null;
    };
    for (const link of page.items) {
      if (link.expires_at === null || Date.parse(link.expires_at) > livesUntil) {
        codes.push(link.code);
      }
    }
    cursor = page.next_cursor;
  } while (cursor !== null && codes.length < count);
  return codes.slice(0, count);
}

async function createBenchLinks(
  base: string,
  key: string,
  count: number,
  log: (line: string) => void,
): Promise<string[]> {
  // Distinct destinations, so that the hash strategy gives each link a code of its own.
  const run = randomBytes(6).toString('hex');
  const codes: string[] = [];
  let next = 0;
  let toldOfLimit = false;
  const createOne = async (index: number): Promise<string> => {
    for (;;) {
      const response = await callHop(base, '/v1/links', {
        method: 'POST',
        key,
        body: {
          destination: `https://bench.example/${run}/${index}`,
          title: 'hop bench',
          tags: [BENCH_TAG],
          ttl_seconds: BENCH_LINK_TTL_SECONDS,
        },
      });
      if (response.status === 201 || response.status === 200) {
        return ((await response.json()) as { code: string }).code;
      }
      if (response.status !== 429) {
        throw new BenchError(
          `creating a bench link at ${base} answered ${response.status}: ` +
            (await problemDetail(response)),
        );
      }
      // SPEC §3: a key's creates are rate limited (HOP_CREATE_RATE); admin keys are not.
      await response.body?.cancel();
      if (!toldOfLimit) log('rate limited (HOP_CREATE_RATE): waiting; an admin key is exempt');
      toldOfLimit = true;
      const seconds = Number(response.headers.get('retry-after') ?? '1');
      await sleep(1000 * (Number.isFinite(seconds) && seconds > 0 ? seconds : 1));
    }
  };
  let failed = false;
  const worker = async () => {
    while (!failed && next < count) {
      try {
        codes.push(await createOne(next++));
      } catch (error) {
        failed = true; // the other workers stop too, instead of creating on regardless
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CREATES_IN_FLIGHT, count) }, worker));
  return codes;
}

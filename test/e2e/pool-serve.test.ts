import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { randomFillSync } from 'node:crypto';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { poolLowWater, poolSequenceName } from '../../src/codes/pool-code-generator.js';
import { RandomCodeGenerator } from '../../src/codes/random-code-generator.js';
import { startHop, stopHop, type ServeProcess } from '../support/hop-process.js';
import { writePoolFile } from '../support/pool-files.js';

const ADMIN_KEY = 'hop_pool_e2e_admin_key_0123456789';
/** A tenth of the default batch keeps the test short; the claims work the same. */
const BATCH = 1000;
const POOL_SIZE = 10_000;
/** Per process: more than three batches, so both refill while the other does. */
const CREATES_EACH = 3_300;
const CONCURRENCY = 8;

function uniqueCodes(count: number): string[] {
  const random = new RandomCodeGenerator({
    alphabet: ALPHABETS.base62,
    length: 7,
    randomBytes: (buffer) => {
      randomFillSync(buffer);
    },
  });
  const codes = new Set<string>();
  while (codes.size < count) codes.add(random.generateSync());
  return [...codes];
}

async function createMany(hop: ServeProcess, count: number, tag: string): Promise<string[]> {
  const codes: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${hop.url}/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ destination: `https://example.com/${tag}/${i}` }),
      });
      const body = (await response.json()) as { code: string };
      assert.equal(response.status, 201, JSON.stringify(body));
      codes.push(body.code);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return codes;
}

interface Stats {
  codes: { strategy: string; length: number };
  creates: { links_created: number; insert_attempts: number };
}

async function statsOf(hop: ServeProcess): Promise<Stats> {
  const response = await fetch(`${hop.url}/v1/stats`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Stats;
}

describe('two hop serve processes on one pool file and one SQLite database', () => {
  test('never hand out the same code, and skip no more than what they hold', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const poolFile = join(dir, 'pool.codes');
    const pool = uniqueCodes(POOL_SIZE);
    const header = writePoolFile(poolFile, pool, 7);
    const env = {
      HOP_DATA_DIR: dir,
      HOP_CODE_STRATEGY: 'pool',
      HOP_POOL_FILE: poolFile,
      HOP_POOL_BATCH: String(BATCH),
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_ANALYTICS: 'off',
      HOP_LOG_LEVEL: 'info',
    };
    const a = await startHop(env);
    const b = await startHop(env);
    let stopped = false;
    t.after(async () => {
      if (!stopped) {
        a.child.kill('SIGKILL');
        b.child.kill('SIGKILL');
      }
    });

    const [fromA, fromB] = await Promise.all([
      createMany(a, CREATES_EACH, 'a'),
      createMany(b, CREATES_EACH, 'b'),
    ]);
    const [statsA, statsB] = await Promise.all([statsOf(a), statsOf(b)]);
    stopped = true;
    await Promise.all([stopHop(a), stopHop(b)]);

    const handedOut = [...fromA, ...fromB];
    assert.equal(new Set(handedOut).size, handedOut.length, 'no code handed to two links');
    // A code handed out twice would have cost its second create another insert.
    for (const stats of [statsA, statsB]) {
      assert.equal(stats.codes.strategy, 'pool');
      assert.equal(stats.creates.links_created, CREATES_EACH);
      assert.equal(stats.creates.insert_attempts, CREATES_EACH, 'no generated code was taken');
    }

    const db = new Database(join(dir, 'hop.db'), { readonly: true });
    const offset = db
      .prepare<[string], number>('SELECT next FROM sequences WHERE name = ?')
      .pluck()
      .get(poolSequenceName(header));
    const rows = db.prepare('SELECT count(*) FROM links').pluck().get();
    db.close();
    assert.equal(rows, 2 * CREATES_EACH);
    assert.ok(offset !== undefined && offset <= POOL_SIZE);

    // Every code handed out comes from the claimed part of the file, in the file's order.
    const claimed = new Set(pool.slice(0, offset));
    for (const code of handedOut) assert.ok(claimed.has(code), `${code} was never claimed`);
    const skipped = offset - handedOut.length;
    t.diagnostic(`claimed ${offset} codes, handed out ${handedOut.length}, skipped ${skipped}`);
    // What each process still held when it stopped is lost: at most a batch and the
    // low-water mark it refills at.
    assert.ok(skipped >= 0);
    assert.ok(skipped <= 2 * (BATCH + poolLowWater(BATCH)), `skipped ${skipped}`);
  });
});

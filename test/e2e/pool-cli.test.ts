import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  decodePoolHeader,
  POOL_HEADER_BYTES,
  poolCodeCount,
} from '../../src/adapters/pool-file/pool-file-format.js';
import { runHop } from '../support/hop-process.js';

/** The codes of a pool file, after checking its header names `width`. */
function readPool(file: string, width: number): { id: string; codes: string[] } {
  const bytes = readFileSync(file);
  const header = decodePoolHeader(bytes);
  assert.ok(header !== null, 'the file starts with a pool header');
  assert.equal(header.width, width);
  assert.equal((bytes.length - POOL_HEADER_BYTES) % width, 0, 'no torn code at the end');
  const codes: string[] = [];
  for (let i = 0; i < poolCodeCount(bytes.length, width); i++) {
    const at = POOL_HEADER_BYTES + i * width;
    codes.push(bytes.toString('latin1', at, at + width));
  }
  return { id: header.id, codes };
}

describe('hop pool generate', () => {
  test('writes a pool of unique codes, and keeps it unless --force', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { HOP_DATA_DIR: dir };

    // A custom alias in the store: whatever the pool draws, never this.
    const alias = await runHop(
      ['links', 'create', 'https://example.com/', '--alias', 'Keep1234'],
      env,
    );
    assert.equal(alias.status, 0, alias.stderr);

    const generated = await runHop(['pool', 'generate', '--count', '20000'], env);
    assert.equal(generated.status, 0, generated.stderr);
    const file = join(dir, 'pool.codes');
    assert.match(
      generated.stdout,
      new RegExp(
        `wrote 20000 codes of 7 characters to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ` +
          `\\(pool [0-9a-f]{16}\\): ${POOL_HEADER_BYTES + 20000 * 7} bytes in [\\d.]+ s, ` +
          `peak RSS \\d+ MB`,
      ),
    );
    assert.match(generated.stdout, /excluded the store's 1 codes/);
    const first = readPool(file, 7);
    assert.equal(first.codes.length, 20000);
    assert.equal(new Set(first.codes).size, 20000, 'no code twice');
    assert.ok(first.codes.every((code) => /^[0-9a-zA-Z]{7}$/.test(code)));
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left',
    );

    const again = await runHop(['pool', 'generate', '--count', '10'], env);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /pool\.codes exists: servers may be taking codes from it.*--force/);
    assert.deepEqual(readPool(file, 7), first, 'the existing pool is untouched');

    const replaced = await runHop(['pool', 'generate', '--count', '500', '--force'], env);
    assert.equal(replaced.status, 0, replaced.stderr);
    const second = readPool(file, 7);
    assert.equal(second.codes.length, 500);
    assert.notEqual(second.id, first.id, 'a new pool has a new id');
  });

  test('--file, --length and HOP_CODE_ALPHABET shape the pool', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'nested', 'other.codes');
    const run = await runHop(
      ['pool', 'generate', '--count', '3000', '--length', '10', '--file', file],
      {
        HOP_DATA_DIR: dir,
        HOP_CODE_ALPHABET: 'base64url',
      },
    );
    assert.equal(run.status, 0, run.stderr);
    const pool = readPool(file, 10);
    assert.equal(new Set(pool.codes).size, 3000);
    assert.ok(pool.codes.every((code) => /^[A-Za-z0-9_-]{10}$/.test(code)));
    assert.equal(existsSync(join(dir, 'pool.codes')), false, 'the default file is not written');
  });

  test('bad --count and --length exit 1 with a message, writing nothing', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-pool-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { HOP_DATA_DIR: dir };
    for (const count of ['0', '-5', '1.5', '12x']) {
      const run = await runHop(['pool', 'generate', '--count', count], env);
      assert.equal(run.status, 1, `--count ${JSON.stringify(count)}`);
      assert.match(run.stderr, /--count .* must be a positive whole number/);
    }
    const missing = await runHop(['pool', 'generate'], env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /required option '--count <n>' not specified/);
    for (const length of ['3', '33']) {
      const run = await runHop(['pool', 'generate', '--count', '10', '--length', length], env);
      assert.equal(run.status, 1, `--length ${length}`);
      assert.match(run.stderr, /--length .* must be a whole number from 4 to 32/);
    }
    const tooMany = await runHop(['pool', 'generate', '--count', '8000000', '--length', '4'], env);
    assert.equal(tooMany.status, 1);
    assert.match(tooMany.stderr, /would fill more than half .* use a longer --length/);
    const tooBig = await runHop(['pool', 'generate', '--count', '1000000001'], env);
    assert.equal(tooBig.status, 1);
    assert.match(tooBig.stderr, /one pool file holds at most 1000000000 codes/);
    assert.equal(existsSync(join(dir, 'pool.codes')), false);
  });
});

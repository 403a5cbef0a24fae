import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { median, percent, rotate } from '../../bench/support/report.js';
import { BENCH_ROOT, npmStartCommand } from '../../bench/support/servers.js';

/** The bench measures hop as `npm start` runs it: the command comes from package.json. */
describe('bench support', { timeout: 10_000 }, () => {
  test("npm start's command is package.json's start script, run by this Node", () => {
    const manifest = JSON.parse(readFileSync(join(BENCH_ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    // `exec node …` (ADR 0104): spawned directly, node is what the shell would exec.
    const [exec, program, ...args] = manifest.scripts.start.split(/\s+/);
    assert.equal(exec, 'exec');
    assert.equal(program, 'node');
    assert.deepEqual(npmStartCommand(BENCH_ROOT), [process.execPath, ...args]);
  });

  test('a start script that needs a shell is refused, not run differently', () => {
    const root = mkdtempSync(join(tmpdir(), 'hop-bench-support-'));
    try {
      writeFileSync(
        join(root, 'package.json'),
        JSON.stringify({ scripts: { start: 'npm run build && node dist/cli/hop.js serve' } }),
      );
      assert.throws(() => npmStartCommand(root), /without a shell/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the paired figure is the median over pairs', () => {
    assert.equal(median([0.72, 0.708, 0.653]), 0.708);
    assert.equal(median([1, 3, 2, 4]), 2.5);
    assert.equal(percent(0.708, 1, 1), '70.8%');
    assert.equal(percent(1, 0), '');
  });

  test('rotated rounds start each variant in turn', () => {
    assert.deepEqual(rotate(['a', 'b', 'c'], 1), ['b', 'c', 'a']);
    assert.deepEqual(rotate(['a', 'b', 'c'], 3), ['a', 'b', 'c']);
  });
});

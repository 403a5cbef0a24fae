import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import {
  inliningFlagsFor,
  REDIRECT_INLINING_FLAGS,
  serveV8FlagsFor,
} from '../../src/cli/serve-v8-flags.js';

describe('hop serve: TurboFan inlining budgets (ADR 0154)', () => {
  test('raised when the command line names none of them', () => {
    assert.deepEqual(inliningFlagsFor([]), REDIRECT_INLINING_FLAGS);
    assert.deepEqual(inliningFlagsFor(['--max-semi-space-size=8']), REDIRECT_INLINING_FLAGS);
  });

  test("an operator's own budget, any of V8's three in either spelling, leaves them as given", () => {
    assert.deepEqual(inliningFlagsFor(['--max-inlined-bytecode-size-cumulative=920']), []);
    assert.deepEqual(inliningFlagsFor(['--max_inlined_bytecode_size=100']), []);
    assert.deepEqual(inliningFlagsFor(['--max-inlined-bytecode-size-absolute=9200']), []);
  });

  test("with ADR 0028's heap growth, each left to the operator apart", () => {
    assert.deepEqual(serveV8FlagsFor([]), [
      '--heap-growing-percent=30',
      ...REDIRECT_INLINING_FLAGS,
    ]);
    assert.deepEqual(serveV8FlagsFor(['--heap_growing_percent=50']), REDIRECT_INLINING_FLAGS);
    assert.deepEqual(serveV8FlagsFor(['--max-inlined-bytecode-size=100']), [
      '--heap-growing-percent=30',
    ]);
  });

  test("this Node's V8 knows every flag, and takes the values as given", () => {
    // setFlagsFromString says "unrecognized flag" on stderr for a flag this V8 lacks.
    const script = `const v8 = require('node:v8');
for (const flag of ${JSON.stringify(REDIRECT_INLINING_FLAGS)}) v8.setFlagsFromString(flag);`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0);
    assert.equal(run.stderr, '');
    const listed = spawnSync(process.execPath, [...REDIRECT_INLINING_FLAGS, '--v8-options'], {
      encoding: 'utf8',
    });
    for (const flag of REDIRECT_INLINING_FLAGS) {
      // With the flag given, --v8-options lists its value as the default: V8 took it.
      assert.ok(listed.stdout.includes(`default: ${flag}\n`), flag);
    }
  });
});

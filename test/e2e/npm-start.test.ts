import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../../scripts/build-stamp.js';
import { copyCheckout } from '../../scripts/copy-checkout.js';
import { NPM_CLI, npmStartSmoke } from '../../scripts/npm-start-smoke.js';
import { freePort } from '../support/free-port.js';
import { tempDataDir } from '../support/temp-data.js';

/**
 * Issue 20: `kill -TERM` on `npm start` left hop running. `npm start` here runs in a copy
 * of the checkout with no build (a fresh clone after `npm ci`), so its own build never
 * touches the dist/ the other e2e tests run.
 */
describe('npm start', () => {
  test('builds a fresh clone, then SIGTERM or SIGINT to npm stops hop, which flushes and closes its port', async (t) => {
    const clone = mkdtempSync(join(tmpdir(), 'hop-npm-start-'));
    t.after(() => rmSync(clone, { recursive: true, force: true }));
    copyCheckout(clone);
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
    const run = async (signal: 'SIGTERM' | 'SIGINT') =>
      npmStartSmoke({
        cwd: clone,
        node: process.execPath,
        npmCli: NPM_CLI,
        env: { HOP_DATA_DIR: tempDataDir(t, 'hop-npm-start-data-') },
        port: await freePort(),
        signal,
      });

    const first = await run('SIGTERM');
    assert.match(first.output, /hop: building \(dist\/cli\/hop\.js is missing\)/);
    // hop itself, not a shell running it, is what npm started and signalled.
    assert.match(first.output, /> exec node --max-semi-space-size=8 dist\/cli\/hop\.js serve/);
    assert.equal(first.npmExitCode, 0, first.output);
    assert.match(first.output, /"msg":"stopped"/, 'hop stopped through its own shutdown');

    const second = await run('SIGINT');
    assert.match(second.output, /hop: the build is up to date/, 'no change, no build');
    assert.doesNotMatch(second.output, /hop: building/);
    assert.match(second.output, /"msg":"stopped"/);
  });
});

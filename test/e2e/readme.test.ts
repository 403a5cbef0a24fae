import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { renderConfigTable } from '../../src/config/render-config-table.js';
import { startHop } from '../support/hop-process.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  test('its configuration table is the one ENV_SPEC makes', () => {
    const match = /<!-- config-table:start -->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(README);
    assert.ok(match, 'README has the config-table markers');
    assert.equal(match[1], renderConfigTable());
  });

  test('it shows the two set-up commands', () => {
    assert.ok(README.includes('npm ci && npm start'));
    assert.ok(README.includes('npm test'));
  });

  test('its curl examples work as printed', async (t) => {
    const examples = [...README.matchAll(/^(curl .+)\n# expect: (\d{3})$/gm)].map((m) => ({
      command: m[1]!,
      status: Number(m[2]),
    }));
    assert.ok(examples.length >= 5, 'the tour has its examples');
    const dir = mkdtempSync(join(tmpdir(), 'hop-readme-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const key = 'hop_readme_example_key_0123456789';
    const hop = await startHop({ HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: key });
    t.after(() => hop.child.kill('SIGKILL'));
    for (const example of examples) {
      const command = example.command.replaceAll('http://localhost:8080', hop.url);
      const output = execFileSync('bash', ['-c', command], {
        env: { ...process.env, HOP_KEY: key },
        encoding: 'utf8',
      });
      const status = /^HTTP\/1\.1 (\d{3})/.exec(output)?.[1];
      assert.equal(Number(status), example.status, `${example.command}\n${output}`);
    }
    hop.child.kill('SIGTERM');
    assert.equal(await hop.exited, 0);
  });
});

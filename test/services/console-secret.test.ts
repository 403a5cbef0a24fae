import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { resolveConsoleSecret } from '../../src/main/console-secret.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { tempDataDir } from '../support/temp-data.js';

describe('the console secret', () => {
  test('embedded: made once at first start, kept owner-only beside hop.db, reused after', (t) => {
    const dir = tempDataDir(t);
    const config = loadConfig({ HOP_DATA_DIR: dir });
    const first = resolveConsoleSecret(config, capturingLogger().logger);
    assert.ok(first !== null && first.length === 32);
    const file = join(dir, 'console-secret');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(readFileSync(file, 'utf8').trim(), first.toString('hex'));
    assert.deepEqual(
      resolveConsoleSecret(config, capturingLogger().logger),
      first,
      'a restart keeps its sessions',
    );
  });

  test('HOP_CONSOLE_SECRET wins, and no file is written', (t) => {
    const dir = tempDataDir(t);
    const given = 'a-console-secret-of-30-chars-xx';
    const config = loadConfig({ HOP_DATA_DIR: dir, HOP_CONSOLE_SECRET: given });
    assert.deepEqual(resolveConsoleSecret(config, capturingLogger().logger), Buffer.from(given));
    assert.throws(() => statSync(join(dir, 'console-secret')), { code: 'ENOENT' });
  });

  test('scaled out without one: none, and hop serve says why', () => {
    const config = loadConfig({ HOP_DATABASE_URL: 'postgres://hop@127.0.0.1:5432/hop' });
    const { logger, lines } = capturingLogger();
    assert.equal(resolveConsoleSecret(config, logger), null);
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /HOP_CONSOLE_SECRET is not set/);
  });
});

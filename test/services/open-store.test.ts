import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { openStore } from '../../src/main/open-store.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { tempDataDir } from '../support/temp-data.js';

describe('the embedded store as hop opens it (ADR 0145)', () => {
  test('serving: the redirects’ connection keeps SQLite’s own 2 MB page cache', async (t) => {
    const config = loadConfig({ HOP_DATA_DIR: tempDataDir(t) });
    const opened = await openStore(config, capturingLogger().logger, true);
    t.after(() => opened.store.close());
    assert.equal(opened.kind, 'sqlite');
    if (opened.kind !== 'sqlite') return;
    assert.equal(opened.store.pageCacheKib, 2000);
  });

  test('a CLI command: 64 MB, for bulk writes', async (t) => {
    const config = loadConfig({ HOP_DATA_DIR: tempDataDir(t) });
    const opened = await openStore(config, capturingLogger().logger, false);
    t.after(() => opened.store.close());
    assert.equal(opened.kind, 'sqlite');
    if (opened.kind !== 'sqlite') return;
    assert.equal(opened.store.pageCacheKib, 65_536);
  });
});

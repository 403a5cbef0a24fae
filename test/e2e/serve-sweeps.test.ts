import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { eventually } from '../support/eventually.js';
import { startHop, stopHop } from '../support/hop-process.js';

const ADMIN_KEY = 'hop_sweep_e2e_admin_key_0123456789';

describe('hop serve sweeps every HOP_SWEEP_INTERVAL', () => {
  test('a link past its expiry is marked expired by the running server, and counted', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-serve-sweep-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const hop = await startHop({
      HOP_DATA_DIR: dir,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_SWEEP_INTERVAL: '200ms',
      HOP_ANALYTICS: 'off',
      HOP_LOG_LEVEL: 'info',
    });
    let stopped = false;
    t.after(() => {
      if (!stopped) hop.child.kill('SIGKILL');
    });
    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${hop.url}/v1/links`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ destination: 'https://example.com/brief', ttl_seconds: 1 }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };

    // The link expires a second after it was made; the sweeper marks it at its next run.
    interface Sweeps {
      runs: number;
      expired: number;
      last_run_at: string | null;
    }
    const sweeps = async (): Promise<Sweeps> => {
      const response = await fetch(`${hop.url}/v1/stats`, { headers });
      return ((await response.json()) as { sweeper: Sweeps }).sweeper;
    };
    await eventually(async () => (await sweeps()).expired >= 1, 'the sweeper marking it', 1000);
    const sweeper = await sweeps();
    assert.equal(sweeper.expired, 1);
    assert.ok(sweeper.runs >= 1);
    assert.ok(sweeper.last_run_at !== null);
    assert.match(hop.output(), /"msg":"sweep finished"/);

    stopped = true;
    await stopHop(hop);
    const db = new Database(join(dir, 'hop.db'), { readonly: true });
    t.after(() => db.close());
    const row = db.prepare('SELECT state, version FROM links WHERE id = ?').get(id);
    assert.deepEqual(row, { state: 'expired', version: 2 });
  });
});

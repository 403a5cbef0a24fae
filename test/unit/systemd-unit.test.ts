import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';

const UNIT = readFileSync(new URL('../../deploy/hop.service', import.meta.url), 'utf8');
/** Debian and Ubuntu: the `systemd` package. Absent (a container, macOS): these skip. */
const HAVE_SYSTEMD_ANALYZE = spawnSync('systemd-analyze', ['--version']).status === 0;

/**
 * `systemd-analyze verify` on a copy of the unit whose ExecStart names the node running
 * this test (the unit says /usr/bin/node, where Debian's nodejs puts it; verify refuses a
 * command that is not there). It exits 0 on a value it cannot parse, saying so on stderr,
 * so a clean check is exit 0 and nothing said.
 */
function verify(t: TestContext, unit: string): { status: number | null; said: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hop-unit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'hop.service');
  writeFileSync(file, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
  const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  return { status: run.status, said: `${run.stdout}${run.stderr}`.trim() };
}

/** Every `Key=value` of the unit, the last value of a key winning as in systemd. */
function settings(unit: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of unit.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match !== null) found.set(match[1]!, match[2]!);
  }
  return found;
}

describe('deploy/hop.service', () => {
  test('is hardened: a user of its own, no new privileges, a read-only system, one writable data folder', () => {
    const unit = settings(UNIT);
    const expected: Record<string, string> = {
      User: 'hop',
      NoNewPrivileges: 'true',
      ProtectSystem: 'strict',
      ProtectHome: 'true',
      PrivateTmp: 'true',
      StateDirectory: 'hop',
      ReadWritePaths: '/var/lib/hop',
      Restart: 'on-failure',
      EnvironmentFile: '/etc/hop/hop.env',
      ExecStart: '/usr/bin/node --max-semi-space-size=8 /opt/hop/dist/cli/hop.js serve',
      KillSignal: 'SIGTERM',
      CapabilityBoundingSet: '',
    };
    for (const [key, value] of Object.entries(expected)) assert.equal(unit.get(key), value, key);
    assert.match(unit.get('Environment') ?? '', /\bHOP_DATA_DIR=\/var\/lib\/hop\b/);
    // Stopping waits longer than hop's own shutdown (HOP_SHUTDOWN_TIMEOUT, 10 s).
    assert.ok(Number(unit.get('TimeoutStopSec')) > 10);
    assert.ok(!unit.has('MemoryDenyWriteExecute'), "V8's JIT needs writable code pages");
  });

  test('passes systemd-analyze verify, which does find a broken value', (t) => {
    if (!HAVE_SYSTEMD_ANALYZE) {
      t.skip('systemd-analyze is not installed (Debian: apt-get install systemd)');
      return;
    }
    const clean = verify(t, UNIT);
    assert.deepEqual(clean, { status: 0, said: '' });
    const broken = verify(t, UNIT.replace('ProtectSystem=strict', 'ProtectSystem=strictly'));
    assert.match(broken.said, /Failed to parse protect system value/);
  });
});

import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runHop, startHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';

describe('hop serve as a process', () => {
  test('first start creates the database and prints an admin key once; it works', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const first = await startHop({ HOP_DATA_DIR: dir });
    t.after(() => first.child.kill('SIGKILL'));
    const key = /hop_[0-9A-Za-z]{32}/.exec(first.output())?.[0];
    assert.ok(key, `a key is printed:\n${first.output()}`);
    assert.ok(existsSync(join(dir, 'hop.db')));
    const logLines = first
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    assert.ok(logLines.length > 0);
    assert.ok(
      logLines.every((line) => !line.includes(key)),
      'the key is never in a log line',
    );

    const created = await fetch(`${first.url}/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'https://example.com/e2e' }),
    });
    assert.equal(created.status, 201);
    const link = (await created.json()) as { code: string; short_url: string };
    const redirect = await fetch(`${first.url}/${link.code}`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://example.com/e2e');

    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);

    const second = await startHop({ HOP_DATA_DIR: dir });
    t.after(() => second.child.kill('SIGKILL'));
    assert.ok(!/hop_[0-9A-Za-z]{32}/.test(second.output()), 'no second key is printed');
    const again = await fetch(`${second.url}/${link.code}`, { redirect: 'manual' });
    assert.equal(again.status, 302, 'links survive a restart');
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  test('HOP_BOOTSTRAP_ADMIN_KEY is created if absent and nothing is printed', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const key = 'hop_bootstrap_e2e_key_0123456789';
    const hop = await startHop({ HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: key });
    t.after(() => hop.child.kill('SIGKILL'));
    assert.ok(!hop.output().includes(key));
    const keys = await fetch(`${hop.url}/v1/keys`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(keys.status, 200);
    hop.child.kill('SIGTERM');
    assert.equal(await hop.exited, 0);
  });

  test('SIGTERM finishes the request in flight, then exits 0', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const key = 'hop_bootstrap_e2e_key_0123456789';
    const hop = await startHop({ HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: key });
    t.after(() => hop.child.kill('SIGKILL'));
    const url = new URL(hop.url);
    const body = JSON.stringify({
      destination: 'https://example.com/in-flight',
      alias: 'inflight',
    });

    // Send the headers and half the body, signal the server, then send the rest.
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/v1/links',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      req.on('socket', (socket) => {
        socket.on('connect', () => {
          // Give the server the first bytes, then stop it while the body is incomplete.
          setTimeout(() => {
            hop.child.kill('SIGTERM');
            setTimeout(() => req.end(body.slice(20)), 300);
          }, 200);
        });
      });
    });
    const answered = await response;
    assert.equal(answered.status, 201, answered.text);
    assert.equal(await hop.exited, 0, hop.output());
    assert.match(hop.output(), /shutting down/);

    const restarted = await startHop({ HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: key });
    t.after(() => restarted.child.kill('SIGKILL'));
    const redirect = await fetch(`${restarted.url}/inflight`, { redirect: 'manual' });
    assert.equal(redirect.status, 302, 'the in-flight create was committed');
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  });

  test('start-up failures are one line naming the variable, never a stack trace', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const blocklist = await runHop(['serve'], {
      HOP_DATA_DIR: dir,
      HOP_BLOCKLIST_FILE: join(dir, 'nope.txt'),
    });
    assert.equal(blocklist.status, 2);
    assert.match(blocklist.stderr, /^hop: HOP_BLOCKLIST_FILE=".*nope\.txt" cannot be read: .*\n$/);

    const host = await runHop(['serve'], { HOP_DATA_DIR: dir, HOP_HOST: 'not a host' });
    assert.equal(host.status, 2);
    assert.match(
      host.stderr,
      /^hop: HOP_HOST="not a host" is invalid: expected an IP address or host name/,
    );

    const fileAsDir = join(dir, 'hop.db.file');
    writeFileSync(fileAsDir, 'x');
    const dataDir = await runHop(['serve'], { HOP_DATA_DIR: fileAsDir });
    assert.equal(dataDir.status, 2);
    assert.match(dataDir.stderr, /^hop: HOP_DATA_DIR=".*" cannot be used: .*\n$/);

    const first = await startHop({ HOP_DATA_DIR: dir });
    t.after(() => first.child.kill('SIGKILL'));
    const port = new URL(first.url).port;
    const busy = await runHop(['serve'], {
      HOP_DATA_DIR: dir,
      HOP_HOST: '127.0.0.1',
      HOP_PORT: port,
    });
    assert.equal(busy.status, 2);
    assert.match(
      busy.stderr,
      /^hop: HOP_HOST="127\.0\.0\.1" HOP_PORT=".*" cannot be listened on: .*EADDRINUSE.*\n$/,
    );
    assert.ok(!/hop_[0-9A-Za-z]{32}/.test(busy.stdout), 'no key is printed by a failed start');
    first.child.kill('SIGTERM');
    await first.exited;
  });

  test('an unknown HOP_ variable is warned about', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const run = await runHop(['migrate'], { HOP_DATA_DIR: dir, HOP_PROT: '9000' });
    assert.equal(run.status, 0);
    assert.match(run.stderr, /^hop: warning: HOP_PROT is not a hop variable and is ignored$/m);
  });

  test('a bad variable stops the start with one line naming it', async (t) => {
    const dir = tempDataDir(t, 'hop-e2e-');
    const run = await runHop(['serve'], {
      HOP_DATA_DIR: dir,
      HOP_PORT: 'eighty',
      HOP_LOG_LEVEL: 'loud',
    });
    assert.equal(run.status, 2);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 2, run.stderr);
    assert.match(
      lines[0]!,
      /^hop: HOP_PORT="eighty" is invalid: expected a whole number from 0 to 65535\.$/,
    );
    assert.match(lines[1]!, /^hop: HOP_LOG_LEVEL="loud" is invalid: expected one of: fatal, error/);
    assert.ok(!existsSync(join(dir, 'hop.db')), 'nothing was created');

    const pg = await runHop(['serve'], { HOP_DATA_DIR: dir, HOP_DATABASE_URL: 'mysql://x' });
    assert.equal(pg.status, 2);
    assert.match(pg.stderr, /^hop: HOP_DATABASE_URL=.* is invalid: /);

    // A PostgreSQL that refuses: no start, one line naming the variable, no SQLite fallback.
    const refused = await runHop(['serve'], {
      HOP_DATA_DIR: dir,
      HOP_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
    });
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /^hop: HOP_DATABASE_URL cannot be used: /);
    assert.ok(!existsSync(join(dir, 'hop.db')), 'nothing was created');
  });
});

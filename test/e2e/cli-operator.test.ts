import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runHop } from '../support/hop-process.js';
import {
  dropSchema,
  POSTGRES_URL,
  uniqueSchema,
  whenPostgres,
} from '../support/require-postgres.js';
import { tempDataDir } from '../support/temp-data.js';
import { LINK_JSON_KEYS } from '../support/link-json-keys.js';

/** Issue 20's CLI defects, each as an operator met it. */
describe('the hop CLI, as an operator meets it', () => {
  test('a command on a folder without a database says so, names the folder and creates nothing', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-nodb-');
    for (const args of [['links', 'export'], ['links', 'list'], ['keys', 'list'], ['sweep']]) {
      const run = await runHop(args, { HOP_DATA_DIR: dir });
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`there is no hop database in ${dir} \\(HOP_DATA_DIR\\)`));
      assert.doesNotMatch(run.stderr, /exported 0 links/);
    }
    assert.deepEqual(readdirSync(dir), [], 'no empty database was created');
    // A command that adds data may start one, and says where.
    const created = await runHop(['keys', 'create', '--owner', 'first'], { HOP_DATA_DIR: dir });
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stderr, new RegExp(`created a new database in ${dir}`));
  });

  test('an unusable HOP_DATA_DIR fails at once with one line, for serve and the CLI', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-baddir-');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const cases = [
      // Node's recursive mkdir never returns here: hop spun at 100% CPU, silent.
      { path: '/proc/x', reason: /hop cannot create \/proc\/x \(ENOENT\)/ },
      { path: join(file, 'data'), reason: new RegExp(`${file} is a file, not a folder`) },
      { path: file, reason: /it is a file, not a folder/ },
      // A folder that exists and cannot be written (root ignores permission bits, not /proc).
      { path: '/proc', reason: /hop cannot write in it/ },
    ];
    for (const { path, reason } of cases) {
      for (const args of [['serve'], ['migrate'], ['links', 'create', 'https://example.com/']]) {
        const run = await runHop(args, { HOP_DATA_DIR: path, HOP_PORT: '0' });
        assert.equal(run.status, 2, `${path} ${args.join(' ')}: ${run.stdout}${run.stderr}`);
        const lines = run.stderr.trim().split('\n');
        assert.equal(lines.length, 1, run.stderr);
        assert.match(lines[0]!, new RegExp(`^hop: HOP_DATA_DIR="${path}" cannot be used: `));
        assert.match(lines[0]!, reason);
      }
    }
  });

  test('links list: a header, the API wire JSON, --cursor and --all past 100; enable says expired', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-list-');
    const env = { HOP_DATA_DIR: dir, HOP_PUBLIC_URL: 'https://s.example' };
    assert.equal((await runHop(['links', 'seed', '--count', '150'], env)).status, 0);

    const first = await runHop(['links', 'list', '--limit', '100'], env);
    const lines = first.stdout.trim().split('\n');
    assert.equal(lines[0], 'code  state  clicks  owner  destination');
    assert.equal(lines.length, 101);
    const cursor = /--cursor (\S+) for the next page, or --all/.exec(first.stderr)?.[1];
    assert.ok(cursor, first.stderr);
    const rest = await runHop(
      ['links', 'list', '--limit', '100', '--cursor', cursor, '--json'],
      env,
    );
    assert.equal(rest.stdout.trim().split('\n').length, 50);
    assert.equal(rest.stderr, '', 'the last page says nothing more');
    const all = await runHop(['links', 'list', '--all', '--json'], env);
    const links = all.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(new Set(links.map((link) => link['id'])).size, 150);
    // The API's shape: snake_case, RFC 3339 times, the short URL and the clicks.
    const [link] = links;
    assert.deepEqual(Object.keys(link!).sort(), LINK_JSON_KEYS);
    assert.match(String(link!['created_at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(link!['short_url'], `https://s.example/${String(link!['code'])}`);

    const created = await runHop(
      ['links', 'create', 'https://example.com/brief', '--alias', 'brief', '--ttl', '1'],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    assert.match((await runHop(['links', 'disable', 'brief'], env)).stdout, /^brief {2}disabled /);
    // Past its expiry (one second), enabled again: it stays expired, and says so.
    const brief = await runHop(['links', 'list', '--q', 'brief', '--json'], env);
    const expiresAt = Date.parse((JSON.parse(brief.stdout) as { expires_at: string }).expires_at);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    const enabled = await runHop(['links', 'enable', 'brief'], env);
    assert.equal(enabled.status, 0, enabled.stderr);
    assert.match(enabled.stdout, /^brief {2}expired /);
    assert.match(enabled.stderr, /brief expired at .*: it stays expired/);
  });

  test('links list --all --json into a reader that stops after one line exits quietly (EPIPE)', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-epipe-');
    const env = { HOP_DATA_DIR: dir };
    assert.equal((await runHop(['links', 'seed', '--count', '1500'], env)).status, 0);
    const hop = spawn(process.execPath, ['dist/cli/hop.js', 'links', 'list', '--all', '--json'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    hop.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head -1`: read the first chunk, then close the pipe while hop still writes.
    await new Promise<void>((resolve) => hop.stdout.once('data', () => resolve()));
    hop.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => hop.on('close', resolve));
    assert.equal(status, 0, stderr);
    assert.equal(stderr, '', 'no EPIPE stack trace');
  });

  test('keys list on an empty store says "no keys"; an unknown command is named with the list', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-nokeys-');
    assert.equal((await runHop(['migrate'], { HOP_DATA_DIR: dir })).status, 0);
    const keys = await runHop(['keys', 'list'], { HOP_DATA_DIR: dir });
    assert.equal(keys.status, 0, keys.stderr);
    assert.match(keys.stdout, /^no keys /);

    const unknown = await runHop(['frobnicate'], { HOP_DATA_DIR: dir });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^hop: unknown command "frobnicate"\. The commands are: serve, /);
    assert.match(unknown.stderr, /links, .*backup|backup, .*links/);
    assert.doesNotMatch(unknown.stderr, /too many arguments/);
  });

  test('read-only commands never connect to Redis: an unreachable one costs them nothing', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-redis-');
    assert.equal((await runHop(['migrate'], { HOP_DATA_DIR: dir })).status, 0);
    // Nothing listens on port 1: a command that tried would log a connection error.
    const env = { HOP_DATA_DIR: dir, HOP_REDIS_URL: 'redis://127.0.0.1:1' };
    for (const args of [
      ['keys', 'list'],
      ['links', 'list'],
      ['links', 'export'],
    ]) {
      const run = await runHop(args, env);
      assert.equal(run.status, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /ECONNREFUSED|ioredis|Redis|at /, run.stderr);
    }
  });
});

void whenPostgres('hop sweep and hop backup on PostgreSQL', () => {
  test('hop sweep on PostgreSQL names the PostgreSQL store, not a SQLite file; backup refuses', async (t) => {
    const schema = uniqueSchema();
    t.after(() => dropSchema(schema));
    const dir = tempDataDir(t, 'hop-cli-pg-');
    const env = { HOP_DATA_DIR: dir, HOP_DATABASE_URL: POSTGRES_URL, HOP_DATABASE_SCHEMA: schema };
    assert.equal((await runHop(['migrate'], env)).status, 0);
    const swept = await runHop(['sweep'], env);
    assert.equal(swept.status, 0, swept.stderr);
    assert.match(swept.stdout, new RegExp(`^hop: swept postgres://[^ ]+ \\(schema ${schema}\\): `));
    assert.doesNotMatch(swept.stdout, /\.db/);
    const backup = await runHop(['backup', join(dir, 'b.db')], env);
    assert.equal(backup.status, 2);
    assert.match(backup.stderr, /back up PostgreSQL with its own tools \(pg_dump\)/);
    assert.ok(!existsSync(join(dir, 'b.db')));
  });
});

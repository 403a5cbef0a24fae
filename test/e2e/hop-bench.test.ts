import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { freePort } from '../support/free-port.js';
import { runHop, startHop, stopHop, type HopRun } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';
import { FULL_SCALE } from '../support/volume.js';

const ADMIN_KEY = 'hop_bench_e2e_admin_key_0123456789';
/**
 * These tests check what `hop bench` reports, not how fast hop is: a light load under
 * `npm test`; under `npm run test:scale`, its default 50 connections, for 5 s after a 1 s
 * warm-up, which loads hop as an operator's run would.
 */
const LOAD = FULL_SCALE
  ? ['--warmup', '1s', '--connections', '50']
  : ['--warmup', '0', '--connections', '4'];
const DURATION = FULL_SCALE ? '5s' : '1s';
const SCENARIOS = ['hot', 'uniform', '404'];

/** `hop bench` as a child (runHop never blocks this process, whose hop child must keep draining). */
function bench(args: readonly string[]): Promise<HopRun> {
  return runHop(['bench', ...args], {});
}

/** The figures of one scenario's table row, which must be all there: requests to errors. */
function tableRow(stdout: string, scenario: string): number[] {
  const figure = String.raw`([\d,]+(?:\.\d+)?)`;
  const met = '(?:pass|OVER)';
  const row = new RegExp(
    `^${scenario} +${figure} +${figure} +(?:pass|UNDER) +${figure} +` +
      `${figure} +${met} +${figure} +${met} +${figure} +${met} +(\\d+)$`,
    'm',
  ).exec(stdout);
  assert.ok(row, `a row for ${scenario}:\n${stdout}`);
  return row.slice(1).map((cell) => Number(cell.replaceAll(',', '')));
}

function assertOneLineMessage(run: HopRun, message: RegExp): void {
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'a message, not a stack trace');
}

describe('hop bench', () => {
  test('loads a running hop: hot, uniform and 404, as a table and as JSON', async (t) => {
    const dir = tempDataDir(t, 'hop-bench-');
    const codesFile = join(dir, 'seeded.codes');
    const seeded = await runHop(['links', 'seed', '--count', '30', '--codes', codesFile], {
      HOP_DATA_DIR: dir,
    });
    assert.equal(seeded.status, 0, seeded.stderr);
    // The 404 scenario is a code scanner to a hop that throttles them: not this one.
    const hop = await startHop({
      HOP_DATA_DIR: dir,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_SCANNER_THRESHOLD: '0',
    });
    t.after(() => hop.child.kill('SIGKILL'));
    const benchHop = (...args: string[]) => bench(['--url', hop.url, ...LOAD, ...args]);

    // Links made through the API, tagged hop-bench; the table.
    const table = await benchHop('--key', ADMIN_KEY, '--links', '20', '--duration', DURATION);
    assert.equal(table.status, 0, `${table.stderr}\n${hop.output()}`);
    assert.match(table.stdout, /^codes +20 links tagged hop-bench \(0 reused, 20 created\)$/m);
    assert.match(table.stdout, /^SLO +>= 40,000 +< 5 +< 20 +< 10 +0$/m);
    for (const scenario of SCENARIOS) {
      const [requests, rps, p50, p80, p99, mean, errors] = tableRow(table.stdout, scenario);
      assert.ok(requests! > 0 && rps! > 0, `${scenario} answered requests`);
      assert.ok(p50! <= p80! && p80! <= p99! && mean! > 0, `${scenario} latencies`);
      assert.equal(errors, 0, table.stdout);
    }
    // Every answer was the one expected: redirects only, 404s only.
    assert.match(table.stdout, /^hot +Zipf.*: 302 ×[\d,]+$/m);
    assert.match(table.stdout, /^uniform +every one of the 20 codes in turn: 302 ×[\d,]+$/m);
    assert.match(table.stdout, /^404 +a new random .*: 404 ×[\d,]+$/m);
    assert.doesNotMatch(table.stdout, /^errors in/m);
    assert.match(table.stdout, /Latency is client-side/);

    // A second run reuses those links, creates the rest, and says so in JSON.
    const json = await benchHop(
      '--key',
      ADMIN_KEY,
      '--links',
      '25',
      '--duration',
      DURATION,
      '--json',
    );
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    const codes = { count: 25, file: null, reused: 20, created: 5, tag: 'hop-bench' };
    assert.deepEqual(report.codes, codes);
    assert.deepEqual(report.slo, { p80_ms: 5, p99_ms: 20, mean_ms: 10, peak_rps: 40000 });
    assert.deepEqual(
      report.scenarios.map((scenario: any) => scenario.name),
      SCENARIOS,
    );
    for (const scenario of report.scenarios) {
      assert.ok(scenario.requests > 0 && scenario.rps > 0, scenario.name);
      for (const figure of ['p50_ms', 'p80_ms', 'p99_ms', 'mean_ms']) {
        assert.ok(typeof scenario[figure] === 'number' && scenario[figure] > 0, figure);
      }
      assert.equal(scenario.errors, 0, JSON.stringify(scenario));
      const statuses = Object.keys(scenario.statuses);
      const expected = scenario.name === '404' ? /^404$/ : /^3\d\d$/;
      assert.ok(statuses.length > 0 && statuses.every((s) => expected.test(s)), statuses.join());
      assert.equal(typeof scenario.slo_met.p80, 'boolean');
    }
    const listed = await fetch(`${hop.url}/v1/links?tag=hop-bench&limit=100`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    assert.equal(((await listed.json()) as { items: unknown[] }).items.length, 25);

    // Codes from `hop links seed --codes`: no key needed.
    const fromFile = await benchHop(
      '--codes',
      codesFile,
      '--scenarios',
      'uniform',
      '--duration',
      '1s',
    );
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.match(fromFile.stdout, new RegExp(`^codes +30 codes from ${codesFile}$`, 'm'));
    assert.equal(tableRow(fromFile.stdout, 'uniform').at(-1), 0);
    assert.doesNotMatch(fromFile.stdout, /^(hot|404) /m);

    await stopHop(hop);
  });

  test('a hop that throttles code scanners answers the 404 scenario with 429s, and the report says why', async (t) => {
    const hop = await startHop({
      HOP_DATA_DIR: tempDataDir(t, 'hop-bench-'),
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      // Throttled after 20 unknown codes, not the default 100: a second of load on a busy
      // CI machine once sent only 87, and nothing was throttled.
      HOP_SCANNER_THRESHOLD: '20',
    });
    t.after(() => hop.child.kill('SIGKILL'));
    const run = await bench([
      '--url',
      hop.url,
      ...LOAD,
      '--key',
      ADMIN_KEY,
      '--links',
      '1',
      '--scenarios',
      '404',
      '--duration',
      '1s',
    ]);
    assert.match(run.stdout, /^errors in 404: .*429/m);
    assert.match(run.stdout, /^429s in 404: the target throttled this client as a code scanner/m);
    await stopHop(hop);
  });

  test('a wrong key, and codes this hop does not have, are refused with a message', async (t) => {
    const dir = tempDataDir(t, 'hop-bench-');
    const hop = await startHop({ HOP_DATA_DIR: dir, HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY });
    t.after(() => hop.child.kill('SIGKILL'));

    assertOneLineMessage(
      await bench(['--url', hop.url, '--key', 'hop_not_a_key_of_this_hop']),
      /^hop: http:\/\/127\.0\.0\.1:\d+ refused the key \(401: .+\); give --key an API key/m,
    );

    const strangers = join(dir, 'strangers.codes');
    writeFileSync(strangers, 'NotHere1\nNotHere2\n');
    assertOneLineMessage(
      await bench(['--url', hop.url, '--codes', strangers]),
      /\/NotHere1 \(from .*strangers\.codes\) answered 404, not a redirect/,
    );

    const badLine = join(dir, 'bad.codes');
    writeFileSync(badLine, 'abc123\n\nnot a code\n');
    assertOneLineMessage(
      await bench(['--url', hop.url, '--codes', badLine]),
      /bad\.codes line 3: "not a code" is not a code/,
    );

    await stopHop(hop);
  });

  test('no hop at --url, no key, bad options: a line that says so', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    assertOneLineMessage(
      await bench(['--url', url, '--key', ADMIN_KEY]),
      /^hop: cannot reach http:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED .*\); is `hop serve` running there\?$/m,
    );
    assertOneLineMessage(
      await bench(['--url', url]),
      /^hop: --key is needed to create the links to load \(or give --codes FILE/m,
    );
    for (const duration of ['soon', '0']) {
      assertOneLineMessage(
        await bench(['--duration', duration]),
        /option '--duration <time>' argument .* is invalid\. It must be a duration such as 2s/,
      );
    }
    assertOneLineMessage(
      await bench(['--scenarios', 'hot,cold']),
      /--scenarios <list>' argument 'hot,cold' is invalid\. .*"cold" is not one/,
    );
  });
});

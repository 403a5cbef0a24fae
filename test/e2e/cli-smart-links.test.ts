import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runHop, startHop, stopHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';

/**
 * Issue 21: `hop links create` takes the smart-link fields (rules from a JSON file, the
 * password from a file or stdin, never argv) and refuses them as the API does, each
 * problem on a line of its own with its field; `hop links list --json` shows them.
 */

interface WireLink {
  readonly code: string;
  readonly destination: string;
  readonly rules: readonly { destination: string; status_code?: number; when: object }[];
  readonly variants: readonly { destination: string; weight: number }[];
  readonly password_protected: boolean;
  readonly max_clicks: number | null;
  readonly fallback_url: string | null;
  readonly forward_query: boolean;
  readonly utm: Record<string, string>;
}

describe('hop links create with smart-link options', () => {
  test('every option lands in the link, as list --json shows; the password works, from stdin too', async (t) => {
    const dir = tempDataDir(t, 'hop-cli-smart-');
    const env = { HOP_DATA_DIR: join(dir, 'data'), HOP_PUBLIC_URL: 'https://s.example' };
    const rules = [
      {
        destination: 'https://m.example/',
        status_code: 307,
        when: { device: ['mobile'], country: ['de'], after: '2030-01-01T00:00:00Z' },
      },
    ];
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
    writeFileSync(
      join(dir, 'variants.json'),
      '[{"destination":"https://a.example/","weight":2},{"destination":"https://b.example/","weight":1}]',
    );
    writeFileSync(join(dir, 'password'), 'from a file\r\nsecond line ignored\n');

    const smart = await runHop(
      [
        'links',
        'create',
        'https://example.com/app?utm_source=old',
        '--alias',
        'app',
        '--rules',
        join(dir, 'rules.json'),
        '--variants',
        join(dir, 'variants.json'),
        '--password-file',
        join(dir, 'password'),
        '--max-clicks',
        '1000',
        '--fallback-url',
        'https://example.com/over',
        '--forward-query',
        '--utm-source',
        'cli',
        '--utm-medium',
        'email',
        '--utm-campaign',
        'q1',
        '--utm-term',
        'shoes',
        '--utm-content',
        'top',
      ],
      env,
    );
    assert.equal(smart.status, 0, smart.stderr);
    assert.equal(smart.stdout, 'https://s.example/app\n');
    // The password from stdin; never from an argument, which `ps` would show.
    const piped = await runHop(
      ['links', 'create', 'https://example.com/piped', '--alias', 'piped', '--password-file', '-'],
      env,
      [],
      'typed in\n',
    );
    assert.equal(piped.status, 0, piped.stderr);
    const inline = await runHop(
      [
        'links',
        'create',
        'https://example.com/ab',
        '--alias',
        'a-b',
        '--variants',
        '[{"destination":"https://a.example/","weight":1},{"destination":"https://b.example/","weight":1}]',
        '--rules',
        '-',
      ],
      env,
      [],
      JSON.stringify([{ destination: 'https://fr.example/', when: { country: ['FR'] } }]),
    );
    assert.equal(inline.status, 0, inline.stderr);

    const listed = await runHop(['links', 'list', '--json'], env);
    assert.equal(listed.status, 0, listed.stderr);
    const links = new Map(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as WireLink)
        .map((link) => [link.code, link]),
    );
    const app = links.get('app')!;
    assert.equal(
      app.destination,
      'https://example.com/app?utm_source=cli&utm_medium=email&utm_campaign=q1&utm_term=shoes&utm_content=top',
    );
    assert.deepEqual(app.rules, [
      {
        destination: 'https://m.example/',
        status_code: 307,
        when: { device: ['mobile'], country: ['DE'], after: '2030-01-01T00:00:00.000Z' },
      },
    ]);
    assert.deepEqual(app.variants, [
      { destination: 'https://a.example/', weight: 2 },
      { destination: 'https://b.example/', weight: 1 },
    ]);
    assert.deepEqual(
      [app.password_protected, app.max_clicks, app.fallback_url, app.forward_query],
      [true, 1000, 'https://example.com/over', true],
    );
    assert.deepEqual(app.utm, {
      source: 'cli',
      medium: 'email',
      campaign: 'q1',
      term: 'shoes',
      content: 'top',
    });
    assert.equal(links.get('piped')?.password_protected, true);
    assert.equal(links.get('a-b')?.rules[0]?.destination, 'https://fr.example/');
    assert.equal(links.get('a-b')?.variants.length, 2);
    assert.ok(!listed.stdout.includes('from a file') && !listed.stdout.includes('typed in'));

    const served = await startHop(env);
    try {
      const visit = (code: string, password: string) =>
        fetch(`${served.url}/${code}`, {
          redirect: 'manual',
          headers: { 'X-Link-Password': password },
        });
      // The file's first line, without its CRLF; stdin's, without its LF.
      assert.equal((await visit('app', 'from a file')).status, 302);
      assert.equal((await visit('app', 'second line ignored')).status, 401);
      assert.equal((await visit('piped', 'typed in')).status, 302);
    } finally {
      await stopHop(served);
    }
  });

  test("the API's refusals, one field a line; a file it cannot read changes nothing", async (t) => {
    const dir = tempDataDir(t, 'hop-cli-smart-bad-');
    const env = { HOP_DATA_DIR: join(dir, 'data') };
    writeFileSync(
      join(dir, 'rules.json'),
      JSON.stringify([
        { destination: 'javascript:alert(1)', when: { device: ['fridge'], colour: 'red' } },
      ]),
    );
    const refused = await runHop(
      [
        'links',
        'create',
        'https://example.com/',
        '--rules',
        join(dir, 'rules.json'),
        '--max-clicks',
        '1.5',
        '--utm-source',
        '',
      ],
      env,
    );
    assert.equal(refused.status, 1);
    const lines = refused.stderr.split('\n').filter((line) => line.startsWith('  '));
    assert.deepEqual(lines.map((line) => line.trim().split(': ')[0]).sort(), [
      'max_clicks',
      'rules[0].destination',
      'rules[0].when.colour',
      'rules[0].when.device[0]',
      'utm.source',
    ]);
    assert.equal(lines.length, 5, refused.stderr);
    assert.match(refused.stderr, /^hop: Some smart link options are invalid\.$/m);

    const short = await runHop(
      ['links', 'create', 'https://example.com/', '--password-file', '-'],
      env,
      [],
      'abc\n',
    );
    assert.equal(short.status, 1);
    assert.match(short.stderr, /^ {2}password: A password has 4 to 128 characters/m);

    const untouched = { HOP_DATA_DIR: join(dir, 'untouched') };
    for (const [args, message] of [
      [['--rules', join(dir, 'missing.json')], /^hop: cannot read --rules .*missing\.json: ENOENT/],
      [['--variants', '[{"destination":'], /^hop: --variants is not JSON: /],
      [
        ['--rules', '-', '--password-file', '-'],
        /^hop: only one of --rules, --variants and --password-file may read stdin$/m,
      ],
    ] as const) {
      const run = await runHop(['links', 'create', 'https://example.com/', ...args], untouched);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, message);
    }
    assert.ok(!existsSync(untouched.HOP_DATA_DIR), 'no link, not even a database, was made');
  });
});

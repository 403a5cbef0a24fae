import assert from 'node:assert/strict';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { LOG_LEVELS } from '../../src/config/config.js';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import {
  ParseError,
  parseBaseUrl,
  parseDuration,
  parseDurationOrNever,
  parseInteger,
  parseOneOf,
  parseRate,
  parseSecret,
} from '../../src/config/parsers.js';

/** SPEC §8: HOP_* variables, validated at start with a clear message naming the bad one. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 86_400 * SECOND;
const YEAR = 365 * DAY;

/** The ConfigError that `env` produces (fails the test when there is none). */
function configProblems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `a ConfigError, not ${String(error)}`);
    assert.equal(error.message, error.problems.join('\n'));
    return error.problems;
  }
  assert.fail(`loadConfig(${JSON.stringify(env)}) should have failed`);
}

/** Exactly one problem line, and it names `variable` first. */
function assertOneProblemFor(env: Record<string, string>, variable: string): string {
  const problems = configProblems(env);
  assert.equal(problems.length, 1, problems.join('\n'));
  const line = problems[0]!;
  assert.ok(line.startsWith(`${variable}=`), line);
  return line;
}

describe('loadConfig: defaults', () => {
  const config = loadConfig({});

  test('listen address and public URL', () => {
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.publicUrl, 'http://localhost:8080');
  });

  test('data dir ./data, resolved, holding hop.db', () => {
    assert.ok(isAbsolute(config.dataDir));
    assert.equal(config.dataDir, resolve('./data'));
    assert.equal(config.databaseFile, join(config.dataDir, 'hop.db'));
    assert.ok(config.databaseFile.endsWith(join('data', 'hop.db')));
  });

  test('lifetimes: default 2 years, at most 10 years', () => {
    assert.equal(config.defaultTtlMs, 2 * YEAR);
    assert.equal(config.maxTtlMs, 10 * YEAR);
  });

  test('create rate 20/s with a burst of 100', () => {
    assert.deepEqual(config.createRate, { ratePerSecond: 20, burst: 100 });
  });

  test('codes: random, 7 characters of base62', () => {
    assert.equal(config.codeStrategy, 'random');
    assert.equal(config.codeLength, 7);
    assert.equal(config.codeAlphabet, 'base62');
  });

  test('log level info, URL length 2048, nothing optional set', () => {
    assert.equal(config.logLevel, 'info');
    assert.equal(config.maxUrlLength, 2048);
    assert.equal(config.bootstrapAdminKey, undefined);
    assert.equal(config.blocklistFile, undefined);
    assert.equal(config.sqliteCacheMebibytes, undefined, 'the page cache is sized by the store');
  });

  test('an empty variable counts as unset', () => {
    const fromEmpty = loadConfig({ HOP_PORT: '', HOP_LOG_LEVEL: '', HOP_DEFAULT_TTL: '' });
    assert.deepEqual(fromEmpty, config);
  });

  test('variables outside HOP_* are ignored', () => {
    assert.deepEqual(loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'x' }), config);
  });
});

describe('loadConfig: the config is frozen', () => {
  test('Object.isFrozen, and writes throw in strict mode', () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config));
    assert.throws(() => {
      (config as { port: number }).port = 1;
    }, TypeError);
    assert.throws(() => {
      (config as { logLevel: string }).logLevel = 'debug';
    }, TypeError);
    assert.equal(config.port, 8080);
  });
});

describe('loadConfig: given values', () => {
  test('every field can be set', () => {
    const config = loadConfig({
      HOP_HOST: '127.0.0.1',
      HOP_PORT: '9000',
      HOP_PUBLIC_URL: 'https://hop.example/',
      HOP_ROOT_REDIRECT: 'https://example.com/about?from=hop',
      HOP_DATA_DIR: '/var/lib/hop',
      HOP_CODE_LENGTH: '9',
      HOP_CODE_ALPHABET: 'base64url',
      HOP_DEFAULT_TTL: '30d',
      HOP_MAX_TTL: '2y',
      HOP_CREATE_RATE: '600/m:50',
      HOP_MAX_URL_LENGTH: '4096',
      HOP_BLOCKLIST_FILE: '/etc/hop/blocklist.txt',
      HOP_LOG_LEVEL: 'debug',
      HOP_BOOTSTRAP_ADMIN_KEY: 'hop_admin_0123456789abcdefghij',
      HOP_SQLITE_CACHE_MB: '32',
    });
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.sqliteCacheMebibytes, 32);
    assert.equal(config.port, 9000);
    assert.equal(config.publicUrl, 'https://hop.example');
    assert.equal(config.rootRedirect, 'https://example.com/about?from=hop');
    assert.equal(config.dataDir, resolve('/var/lib/hop'));
    assert.equal(config.databaseFile, join(resolve('/var/lib/hop'), 'hop.db'));
    assert.equal(config.codeLength, 9);
    assert.equal(config.codeAlphabet, 'base64url');
    assert.equal(config.defaultTtlMs, 30 * DAY);
    assert.equal(config.maxTtlMs, 2 * YEAR);
    assert.deepEqual(config.createRate, { ratePerSecond: 10, burst: 50 });
    assert.equal(config.maxUrlLength, 4096);
    assert.equal(config.blocklistFile, '/etc/hop/blocklist.txt');
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.bootstrapAdminKey, 'hop_admin_0123456789abcdefghij');
  });

  test('the default public URL follows HOP_PORT', () => {
    assert.equal(loadConfig({ HOP_PORT: '9000' }).publicUrl, 'http://localhost:9000');
  });

  test('every log level of SPEC §8 is accepted', () => {
    assert.deepEqual([...LOG_LEVELS].sort(), [
      'debug',
      'error',
      'fatal',
      'info',
      'silent',
      'trace',
      'warn',
    ]);
    for (const level of LOG_LEVELS)
      assert.equal(loadConfig({ HOP_LOG_LEVEL: level }).logLevel, level);
  });

  test('durations 90s, 10m, 30d, 2y', () => {
    assert.equal(loadConfig({ HOP_DEFAULT_TTL: '90s' }).defaultTtlMs, 90 * SECOND);
    assert.equal(loadConfig({ HOP_DEFAULT_TTL: '10m' }).defaultTtlMs, 10 * MINUTE);
    assert.equal(loadConfig({ HOP_DEFAULT_TTL: '30d' }).defaultTtlMs, 30 * DAY);
    assert.equal(loadConfig({ HOP_DEFAULT_TTL: '2y' }).defaultTtlMs, 2 * YEAR);
  });

  test('0 means never, for both lifetimes', () => {
    const config = loadConfig({ HOP_DEFAULT_TTL: '0', HOP_MAX_TTL: '0' });
    assert.equal(config.defaultTtlMs, null);
    assert.equal(config.maxTtlMs, null);
    assert.equal(loadConfig({ HOP_MAX_TTL: '0' }).maxTtlMs, null);
  });

  test('rates 20/s, 600/m:50 and off', () => {
    assert.deepEqual(loadConfig({ HOP_CREATE_RATE: '20/s' }).createRate, {
      ratePerSecond: 20,
      burst: 100,
    });
    assert.deepEqual(loadConfig({ HOP_CREATE_RATE: '600/m:50' }).createRate, {
      ratePerSecond: 10,
      burst: 50,
    });
    assert.equal(loadConfig({ HOP_CREATE_RATE: 'off' }).createRate, null);
  });
});

describe('loadConfig: bad variables', () => {
  test('several at once: one line per bad variable, each naming it and its value', () => {
    const bad = {
      HOP_PORT: 'abc',
      HOP_DEFAULT_TTL: 'forever',
      HOP_LOG_LEVEL: 'loud',
      HOP_CODE_ALPHABET: 'base10',
    };
    const problems = configProblems(bad);
    assert.equal(problems.length, 4, problems.join('\n'));
    for (const [name, value] of Object.entries(bad)) {
      const lines = problems.filter((line) => line.includes(name));
      assert.equal(lines.length, 1, `${name}: ${problems.join(' | ')}`);
      assert.ok(lines[0]!.startsWith(`${name}=`), lines[0]);
      assert.ok(lines[0]!.includes(JSON.stringify(value)), lines[0]);
    }
  });

  test('each line says what the variable accepts', () => {
    const problems = configProblems({
      HOP_PORT: 'abc',
      HOP_LOG_LEVEL: 'loud',
      HOP_CODE_ALPHABET: 'base10',
    });
    const line = (name: string) => problems.find((p) => p.startsWith(`${name}=`)) ?? '';
    assert.match(line('HOP_PORT'), /0 to 65535/);
    assert.match(line('HOP_LOG_LEVEL'), /fatal, error, warn, info, debug, trace, silent/);
    assert.match(line('HOP_CODE_ALPHABET'), /base62, base64url/);
  });

  test('good variables next to bad ones are not reported', () => {
    const problems = configProblems({ HOP_PORT: '9000', HOP_LOG_LEVEL: 'loud', HOP_HOST: '::' });
    assert.equal(problems.length, 1);
    assert.ok(problems[0]!.startsWith('HOP_LOG_LEVEL='));
  });

  test('HOP_DATABASE_URL: a PostgreSQL URL selects PostgreSQL, with its settings', () => {
    const config = loadConfig({
      HOP_DATABASE_URL: 'postgres://hop:secret@db.example:5432/hop',
      HOP_DATABASE_REPLICA_URL: 'postgresql://hop@replica.example/hop',
      HOP_DATABASE_SCHEMA: 'links_v1',
      HOP_DATABASE_POOL_SIZE: '25',
      HOP_STORE_TIMEOUT: '50ms',
    });
    assert.deepEqual(config.database, {
      url: 'postgres://hop:secret@db.example:5432/hop',
      replicaUrl: 'postgresql://hop@replica.example/hop',
      schema: 'links_v1',
      poolSize: 25,
      redirectReadTimeoutMs: 50,
      statementTimeoutMs: 5000,
      engine: 'postgres',
    });
    assert.equal(loadConfig({}).database, undefined, 'unset: embedded SQLite');
  });

  test('HOP_DATABASE_URL: a mysql:// or mariadb:// URL selects MariaDB (issue 25)', () => {
    for (const url of ['mysql://hop:secret@db.example:3306/hop', 'mariadb://hop@db.example/hop']) {
      const config = loadConfig({ HOP_DATABASE_URL: url });
      assert.equal(config.database?.engine, 'mariadb');
      assert.equal(config.database?.url, url);
    }
    const problems = configProblems({
      HOP_DATABASE_URL: 'mysql://hop@db.example/hop',
      HOP_DATABASE_REPLICA_URL: 'postgres://replica/hop',
    });
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      /^HOP_DATABASE_REPLICA_URL is invalid: expected a PostgreSQL primary/,
    );
  });

  test('HOP_REGION needs the shared database, a Redis and NATS (issue 25)', () => {
    const problems = configProblems({ HOP_REGION: 'eu-west' });
    assert.deepEqual(problems, [
      'HOP_REGION is invalid: expected HOP_DATABASE_URL (the regions share one database) too.',
      "HOP_REGION is invalid: expected HOP_REDIS_URL (the region's own cache) too.",
      'HOP_REGION is invalid: expected HOP_NATS_URL (changes reach other regions over NATS) too.',
    ]);
    const config = loadConfig({
      HOP_REGION: 'eu-west',
      HOP_DATABASE_URL: 'mysql://hop@galera-eu:3306/hop',
      HOP_REDIS_URL: 'redis://redis-eu:6379',
      HOP_NATS_URL: 'nats://nats-eu:4222',
    });
    assert.equal(config.region, 'eu-west');
    // Each region's clicks in a stream of their own.
    assert.equal(config.natsStream, 'HOP_CLICKS-eu-west');
    assertOneProblemFor({ HOP_REGION: 'EU West' }, 'HOP_REGION');
  });

  test('bad PostgreSQL settings are refused, naming them, without echoing credentials', () => {
    const line = assertOneProblemFor(
      { HOP_DATABASE_URL: 'sqlserver://hop:secret@db.example/hop' },
      'HOP_DATABASE_URL',
    );
    assert.ok(!line.includes('secret'), line);
    assertOneProblemFor(
      { HOP_DATABASE_URL: 'postgres://db/hop', HOP_DATABASE_SCHEMA: 'Robert"; DROP' },
      'HOP_DATABASE_SCHEMA',
    );
    assertOneProblemFor(
      { HOP_DATABASE_URL: 'postgres://db/hop', HOP_DATABASE_POOL_SIZE: '0' },
      'HOP_DATABASE_POOL_SIZE',
    );
    const problems = configProblems({ HOP_DATABASE_REPLICA_URL: 'postgres://replica/hop' });
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      /^HOP_DATABASE_REPLICA_URL is invalid: expected HOP_DATABASE_URL too/,
    );
  });

  test('the other scaled-out backends this build lacks are refused too', () => {
    for (const name of ['HOP_NATS_URL']) {
      assertOneProblemFor({ [name]: 'x://y' }, name);
    }
  });

  test('Redis: a URL or cluster seed nodes, checked, and not both', () => {
    assert.equal(
      loadConfig({ HOP_REDIS_URL: 'redis://10.0.0.5:6379' }).redisUrl,
      'redis://10.0.0.5:6379',
    );
    assert.deepEqual(
      loadConfig({ HOP_REDIS_CLUSTER: '10.0.0.5:7000, r2.example:7001' }).redisClusterNodes,
      ['10.0.0.5:7000', 'r2.example:7001'],
    );
    assertOneProblemFor({ HOP_REDIS_URL: 'http://10.0.0.5' }, 'HOP_REDIS_URL');
    assertOneProblemFor({ HOP_REDIS_CLUSTER: '10.0.0.5' }, 'HOP_REDIS_CLUSTER');
    assertOneProblemFor({ HOP_REDIS_CLUSTER: 'a:1,b:99999' }, 'HOP_REDIS_CLUSTER');
    assert.throws(
      () => loadConfig({ HOP_REDIS_URL: 'redis://a:6379', HOP_REDIS_CLUSTER: 'b:7000' }),
      /not both/,
    );
    const secret = configProblems({ HOP_REDIS_URL: 'http://user:hunter2@x' })[0]!;
    assert.ok(!secret.includes('hunter2'), secret);
  });

  test('one bad value for each kind of variable', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['HOP_HOST', '   '],
      ['HOP_PORT', '65536'],
      ['HOP_PORT', '-1'],
      ['HOP_PORT', '80.5'],
      ['HOP_PORT', '8080x'],
      ['HOP_PUBLIC_URL', 'hop.example'],
      ['HOP_PUBLIC_URL', 'ftp://hop.example'],
      ['HOP_PUBLIC_URL', 'https://hop.example/?a=1'],
      ['HOP_PUBLIC_URL', 'https://user:pw@hop.example'],
      ['HOP_ROOT_REDIRECT', 'example.com/about'],
      ['HOP_ROOT_REDIRECT', 'javascript:alert(1)'],
      ['HOP_ROOT_REDIRECT', 'https://user:pw@example.com/'],
      ['HOP_DATA_DIR', ' '],
      ['HOP_CODE_STRATEGY', 'sequential'],
      ['HOP_CODE_LENGTH', 'seven'],
      ['HOP_CODE_LENGTH', '33'],
      ['HOP_CODE_ALPHABET', 'Base62'],
      ['HOP_DEFAULT_TTL', '2 years'],
      ['HOP_MAX_TTL', '-1d'],
      ['HOP_CREATE_RATE', 'fast'],
      ['HOP_CREATE_RATE', '20/d'],
      ['HOP_MAX_URL_LENGTH', '10'],
      ['HOP_LOG_LEVEL', 'INFO'],
      ['HOP_SHUTDOWN_TIMEOUT', '0'],
      ['HOP_SQLITE_CACHE_MB', '0'],
      ['HOP_SQLITE_CACHE_MB', '64MB'],
    ];
    for (const [name, value] of cases) assertOneProblemFor({ [name]: value }, name);
  });

  test('a default lifetime longer than the maximum is refused, naming HOP_DEFAULT_TTL', () => {
    assertOneProblemFor({ HOP_DEFAULT_TTL: '20y' }, 'HOP_DEFAULT_TTL');
    assertOneProblemFor({ HOP_DEFAULT_TTL: '3y', HOP_MAX_TTL: '1y' }, 'HOP_DEFAULT_TTL');
  });

  test('a bad bootstrap admin key is named but its value is not echoed', () => {
    // SPEC §8: no API keys in logs. A key that is almost right (e.g. one trailing space from
    // a copy-paste) is still the real key and must not end up in stderr.
    const secret = 'hop_admin_0123456789abcdefghij ';
    const line = assertOneProblemFor(
      { HOP_BOOTSTRAP_ADMIN_KEY: secret },
      'HOP_BOOTSTRAP_ADMIN_KEY',
    );
    assert.ok(!line.includes(secret.trim()), line);
  });
});

describe('parsers', () => {
  test('parseDuration: units from ms to years', () => {
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('90s'), 90 * SECOND);
    assert.equal(parseDuration('10m'), 10 * MINUTE);
    assert.equal(parseDuration('12h'), 12 * 60 * MINUTE);
    assert.equal(parseDuration('30d'), 30 * DAY);
    assert.equal(parseDuration('1w'), 7 * DAY);
    assert.equal(parseDuration('2y'), 2 * YEAR);
    assert.equal(parseDuration(' 10m '), 10 * MINUTE);
  });

  test('parseDuration: zero, signs, fractions, no unit and nonsense are refused', () => {
    for (const raw of ['', '0', '0s', '10', '-5s', '+5s', '1.5h', '10 minutes', '5x', 'forever']) {
      assert.throws(() => parseDuration(raw), ParseError, JSON.stringify(raw));
    }
    assert.throws(() => parseDuration('99999999999y'), ParseError);
  });

  test('parseDurationOrNever: 0 is never, everything else is a duration', () => {
    assert.equal(parseDurationOrNever('0'), null);
    assert.equal(parseDurationOrNever(' 0 '), null);
    assert.equal(parseDurationOrNever('90s'), 90 * SECOND);
    assert.throws(() => parseDurationOrNever('never'), ParseError);
    assert.throws(() => parseDurationOrNever('0s'), ParseError);
  });

  test('parseRate: rate, unit, optional burst', () => {
    assert.deepEqual(parseRate('20/s'), { ratePerSecond: 20, burst: 100 });
    assert.deepEqual(parseRate('20/s:100'), { ratePerSecond: 20, burst: 100 });
    assert.deepEqual(parseRate('600/m:50'), { ratePerSecond: 10, burst: 50 });
    assert.deepEqual(parseRate('600/m'), { ratePerSecond: 10, burst: 50 });
    assert.deepEqual(parseRate('3600/h'), { ratePerSecond: 1, burst: 5 });
    assert.deepEqual(parseRate('0.5/s'), { ratePerSecond: 0.5, burst: 3 });
    assert.deepEqual(parseRate(' 20/s:100 '), { ratePerSecond: 20, burst: 100 });
  });

  test('parseRate: off and 0 mean unlimited', () => {
    assert.equal(parseRate('off'), null);
    assert.equal(parseRate('0'), null);
  });

  test('parseRate: malformed rates are refused', () => {
    for (const raw of ['', '20', '20/d', '/s', '0/s', '20/s:0', '20/s:', '-1/s', 'fast', 'on']) {
      assert.throws(() => parseRate(raw), ParseError, JSON.stringify(raw));
    }
  });

  test('parseInteger: whole numbers within bounds', () => {
    const port = parseInteger(0, 65535);
    assert.equal(port('0'), 0);
    assert.equal(port('65535'), 65535);
    assert.equal(port(' 8080 '), 8080);
    for (const raw of ['', '-1', '65536', '1e3', '0x50', '80.0', 'abc']) {
      assert.throws(() => port(raw), ParseError, JSON.stringify(raw));
    }
  });

  test('parseOneOf: exact choices, trimmed', () => {
    const level = parseOneOf(['info', 'debug'] as const);
    assert.equal(level('info'), 'info');
    assert.equal(level(' debug '), 'debug');
    assert.throws(() => level('INFO'), ParseError);
    assert.throws(() => level(''), ParseError);
  });

  test('parseBaseUrl: an http(s) origin or path, without a trailing slash', () => {
    assert.equal(parseBaseUrl('https://hop.example'), 'https://hop.example');
    assert.equal(parseBaseUrl('https://hop.example/'), 'https://hop.example');
    assert.equal(parseBaseUrl('HTTP://HOP.EXAMPLE:8080/'), 'http://hop.example:8080');
    assert.equal(parseBaseUrl('https://example.com/go/'), 'https://example.com/go');
    for (const raw of ['', 'hop.example', 'ftp://hop.example', 'https://h.example/#x']) {
      assert.throws(() => parseBaseUrl(raw), ParseError, JSON.stringify(raw));
    }
  });

  test('parseSecret: 20 to 200 printable characters without spaces', () => {
    assert.equal(parseSecret('a'.repeat(20)), 'a'.repeat(20));
    assert.equal(parseSecret('!'.repeat(200)), '!'.repeat(200));
    for (const raw of ['a'.repeat(19), 'a'.repeat(201), 'a'.repeat(20) + ' ', 'ä'.repeat(20)]) {
      assert.throws(() => parseSecret(raw), ParseError);
    }
  });
});

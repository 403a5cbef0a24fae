import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CodeStrategy, Config, LogLevel, DatabaseConfig } from '../../src/config/config.js';
import { ENV_SPEC } from '../../src/config/env-spec.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { RateRule } from '../../src/config/parsers.js';

/** True when A and B are the same type (checked by tsc, which runs over the tests). */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

test("Config's field types are its rows' parsers' (a variable is one row)", () => {
  const same: [
    Same<Config['port'], number>,
    Same<Config['host'], string>,
    Same<Config['redisUrl'], string | undefined>,
    Same<Config['sweepIntervalMs'], number | null>,
    Same<Config['createRate'], RateRule | null>,
    Same<Config['codeStrategy'], CodeStrategy>,
    Same<Config['logLevel'], LogLevel>,
    Same<Config['knownCodes'], boolean>,
    Same<Config['natsServers'], readonly string[] | undefined>,
    // Worked out from the rows rather than read as they are.
    Same<Config['publicUrl'], string>,
    Same<Config['poolFile'], string>,
    Same<Config['trustProxy'], readonly string[]>,
    Same<DatabaseConfig['url'], string>,
    Same<DatabaseConfig['replicaUrl'], string | undefined>,
    Same<DatabaseConfig['poolSize'], number>,
  ] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
  assert.ok(same.every(Boolean));
});

test('every row has a name and a field of its own, and fills that field', () => {
  const names = ENV_SPEC.map((row) => row.name);
  assert.equal(new Set(names).size, names.length, 'one row per variable');
  const keys = ENV_SPEC.map((row) => `${'group' in row ? row.group : 'config'}.${row.key}`);
  assert.equal(new Set(keys).size, keys.length, 'one row per field');

  const config = loadConfig({ HOP_DATABASE_URL: 'postgres://hop@db:5432/hop' });
  for (const row of ENV_SPEC) {
    const holder: object | undefined = 'group' in row ? config.database : config;
    assert.ok(holder !== undefined && row.key in holder, `${row.name} fills ${row.key}`);
  }
});

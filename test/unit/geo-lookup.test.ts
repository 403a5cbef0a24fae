import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openMmdbGeoLookup, placeOf } from '../../src/adapters/geoip/mmdb-geo-lookup.js';
import { publicAddressOf } from '../../src/adapters/geoip/public-address.js';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { openGeoDatabase, openGeoDatabaseWhenUsed } from '../../src/main/geo-database.js';
import { tempDataDir } from '../support/temp-data.js';

/** Issue 21: a click's country from its address, in the CC0 database bundled with hop. */
describe('built-in geolocation', () => {
  const geo = openGeoDatabase(undefined);

  test('well-known public addresses are placed in their countries', () => {
    const countries = Object.fromEntries(
      [
        '8.8.8.8',
        '193.99.144.80',
        '81.2.69.160',
        '133.242.0.1',
        '2001:4860:4860::8888',
        '::ffff:8.8.8.8',
      ].map((address) => [address, geo.lookup(address)?.country]),
    );
    assert.deepEqual(countries, {
      '8.8.8.8': 'US',
      '193.99.144.80': 'DE',
      '81.2.69.160': 'GB',
      '133.242.0.1': 'JP',
      '2001:4860:4860::8888': 'US',
      '::ffff:8.8.8.8': 'US',
    });
  });

  test('the bundled database names countries only', () => {
    assert.equal(geo.hasCities, false);
    assert.deepEqual(geo.lookup('8.8.8.8'), { country: 'US', city: null });
  });

  test('loopback, private, unknown and non-addresses are nowhere', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '192.168.1.1',
      '',
      'nonsense',
      '::ffff:',
    ]) {
      assert.equal(geo.lookup(address), null, address);
    }
  });

  test('only public unicast addresses are looked up; IPv4-mapped ones as IPv4', () => {
    const kept = {
      '8.8.8.8': '8.8.8.8',
      '::ffff:8.8.8.8': '8.8.8.8',
      '255.255.255.254': null,
      '2001:4860:4860::8888': '2001:4860:4860::8888',
      '2a00:1450:4001:82b::200e': '2a00:1450:4001:82b::200e',
      '100.63.255.1': '100.63.255.1',
      '172.32.0.1': '172.32.0.1',
    };
    for (const [address, expected] of Object.entries(kept)) {
      assert.equal(publicAddressOf(address), expected, address);
    }
    for (const address of [
      '0.1.2.3',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.1.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.2.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.7',
      '224.0.0.1',
      '::ffff:10.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '2001:db8::1',
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '1..2.3',
      '1.2.3.4 ',
      '1234.1.1.1',
      '',
      'nonsense',
      'x:y',
    ]) {
      assert.equal(publicAddressOf(address), null, address);
    }
  });

  test('City databases: country and English city name; a country-only one: no city', () => {
    const city = {
      country: { iso_code: 'DE' },
      registered_country: { iso_code: 'DE' },
      city: { names: { en: 'Hanover', de: 'Hannover' } },
    };
    assert.deepEqual(placeOf(city, true), { country: 'DE', city: 'Hanover' });
    assert.deepEqual(placeOf(city, false), { country: 'DE', city: null });
    assert.deepEqual(placeOf({ registered_country: { iso_code: 'fr' } }, true), {
      country: 'FR',
      city: null,
    });
    assert.deepEqual(placeOf({ country_code: 'JP' }, false), { country: 'JP', city: null });
    assert.equal(placeOf({ country_code: 'Nowhere' }, false), null);
    assert.equal(placeOf({}, true), null);
  });

  test('HOP_GEOIP_DB is a file, read at start: a missing or bad one stops it with one line', (t) => {
    const dir = tempDataDir(t);
    const config = loadConfig({ HOP_DATA_DIR: dir, HOP_GEOIP_DB: join(dir, 'missing.mmdb') });
    assert.equal(config.geoipDatabase, join(dir, 'missing.mmdb'));
    assert.equal(loadConfig({ HOP_DATA_DIR: dir }).geoipDatabase, undefined);
    const fails = (file: string) => {
      try {
        openGeoDatabase(file);
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 1);
        return error.problems[0] ?? '';
      }
      return assert.fail(`${file} opened`);
    };
    assert.match(
      fails(join(dir, 'missing.mmdb')),
      /^HOP_GEOIP_DB=".*missing\.mmdb" cannot be read/,
    );
    const junk = join(dir, 'junk.mmdb');
    writeFileSync(junk, 'not a database');
    assert.match(fails(junk), /^HOP_GEOIP_DB=".*junk\.mmdb" cannot be read as a \.mmdb database/);
  });

  test('outside hop serve, the database is read at its first lookup', (t) => {
    const missing = join(tempDataDir(t), 'missing.mmdb');
    const later = openGeoDatabaseWhenUsed(missing);
    assert.throws(() => later.lookup('8.8.8.8'), ConfigError);
    assert.equal(openGeoDatabaseWhenUsed(undefined).lookup('133.242.0.1')?.country, 'JP');
  });

  test('a file is opened as it is named, the bundled one included', () => {
    const again = openMmdbGeoLookup(
      join(
        import.meta.dirname,
        '../../node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
      ),
    );
    assert.equal(again.lookup('81.2.69.160')?.country, 'GB');
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader, type Response } from 'maxmind';
import type { GeoLookup, GeoPlace } from '../../ports/geo-lookup.js';
import { publicAddressOf } from './public-address.js';

/**
 * The CC0 IP-to-country database that ships with hop (`@ip-location-db/…`, built from the
 * registries' whois and ASN data): no account, no download at start.
 */
export function bundledGeoDatabaseFile(): string {
  const manifest = createRequire(import.meta.url).resolve(
    '@ip-location-db/geo-whois-asn-country-mmdb/package.json',
  );
  return join(dirname(manifest), 'geo-whois-asn-country.mmdb');
}

/** Decoded records kept, by their offset in the file (never by address): see `OffsetCache`. */
const MAX_CACHED_RECORDS = 50_000;

/**
 * A `.mmdb` file read whole into memory once, then looked up synchronously: maxmind's
 * Reader walks the buffer, no I/O per call (issue 21: out of the event loop's way). Reads
 * the country-only records of the bundled database (`{country_code}`) and GeoLite2 / DB-IP
 * City records (`country.iso_code`, `city.names.en`). Throws when the file cannot be read
 * or is no MaxMind database; the caller turns that into the start's one line.
 */
export function openMmdbGeoLookup(file: string): GeoLookup {
  const reader = new Reader<Response>(readFileSync(file), { cache: new OffsetCache() });
  const type = reader.metadata.databaseType.toLowerCase();
  const hasCities = type.includes('city');
  // The same record answers many addresses: its place is made once, keyed by the record.
  const places = new WeakMap<MmdbRecord, GeoPlace | null>();
  return {
    hasCities,
    lookup(address: string): GeoPlace | null {
      const publicAddress = publicAddressOf(address);
      if (publicAddress === null) return null;
      let record: MmdbRecord | null;
      try {
        record = reader.get(publicAddress) as MmdbRecord | null;
      } catch {
        return null; // not an address after all: maxmind's parser throws
      }
      if (record === null || typeof record !== 'object') return null;
      let place = places.get(record);
      if (place === undefined) {
        place = placeOf(record, hasCities);
        places.set(record, place);
      }
      return place;
    },
  };
}

export interface MmdbRecord {
  readonly country_code?: unknown;
  readonly country?: { readonly iso_code?: unknown };
  readonly registered_country?: { readonly iso_code?: unknown };
  readonly city?: { readonly names?: { readonly en?: unknown } };
}

const COUNTRY = /^[A-Z]{2}$/;

/** A record's place (exported for the City schema's test: no City database ships with hop). */
export function placeOf(record: MmdbRecord, hasCities: boolean): GeoPlace | null {
  const raw =
    record.country_code ?? record.country?.iso_code ?? record.registered_country?.iso_code;
  if (typeof raw !== 'string') return null;
  const country = raw.toUpperCase();
  if (!COUNTRY.test(country)) return null;
  const name = hasCities ? record.city?.names?.en : undefined;
  return { country, city: typeof name === 'string' && name !== '' ? name : null };
}

/**
 * maxmind decodes a record afresh on every hit unless given a cache; its keys are offsets
 * into the file's data section, so what is kept is the records (a few hundred countries,
 * or cities), never a client's address. Bounded: starts afresh when full.
 */
class OffsetCache {
  readonly #records = new Map<string | number, unknown>();

  get(key: string | number): unknown {
    return this.#records.get(key);
  }

  set(key: string | number, value: unknown): void {
    if (this.#records.size >= MAX_CACHED_RECORDS) this.#records.clear();
    this.#records.set(key, value);
  }
}

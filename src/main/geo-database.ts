import { bundledGeoDatabaseFile, openMmdbGeoLookup } from '../adapters/geoip/mmdb-geo-lookup.js';
import { ConfigError } from '../config/load-config.js';
import type { GeoLookup } from '../ports/geo-lookup.js';

/**
 * The IP database of click countries (issue 21, ADR 0109): HOP_GEOIP_DB, else the CC0
 * country database bundled with hop; read whole into memory once, here, at start. A file
 * that cannot be read, or is no MaxMind database, stops the start with one line.
 */
export function openGeoDatabase(file: string | undefined): GeoLookup {
  const path = file ?? bundledGeoDatabaseFile();
  try {
    return openMmdbGeoLookup(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const name = file === undefined ? 'the bundled geolocation database' : 'HOP_GEOIP_DB';
    throw new ConfigError([
      `${name}=${JSON.stringify(path)} cannot be read as a .mmdb database: ${reason}`,
    ]);
  }
}

/**
 * The database opened at the first lookup, not now: for a runtime that is not serving (the
 * CLI, which counts no clicks, and tests), so a command does not read 7.8 MB it never uses
 * (50–95 ms here). `hop serve` opens it at start, where a bad file must stop it.
 */
export function openGeoDatabaseWhenUsed(file: string | undefined): GeoLookup {
  let opened: GeoLookup | null = null;
  const geo = () => (opened ??= openGeoDatabase(file));
  return {
    get hasCities() {
      return geo().hasCities;
    },
    lookup: (address) => geo().lookup(address),
  };
}

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

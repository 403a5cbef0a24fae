/** Where an address is, as far as an IP database knows (issue 21, ADR 0109). */
export interface GeoPlace {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
  /** The city's English name; null with a country-only database, or when it does not say. */
  readonly city: string | null;
}

/**
 * An IP-to-place database, opened once and read from memory: `lookup` does no I/O, so the
 * click flusher calls it on the event loop (ADR 0109). Private, loopback and unknown
 * addresses, and anything that is not an address, are null.
 */
export interface GeoLookup {
  /** True when the database names cities (GeoLite2 or DB-IP City), not countries alone. */
  readonly hasCities: boolean;
  lookup(address: string): GeoPlace | null;
}

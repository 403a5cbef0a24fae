/** Shlink mounts its API under every version it speaks: v1 and v2 answer as v3 does. */
export const VERSION_PREFIXES = ['/rest/v1', '/rest/v2', '/rest/v3'] as const;

/** Each versioned path of a Shlink route (`/short-urls` → `/rest/v1/short-urls`, …). */
export function versioned(path: string): string[] {
  return VERSION_PREFIXES.map((prefix) => `${prefix}${path}`);
}

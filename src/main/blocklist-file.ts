import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { ConfigError } from '../config/load-config.js';
import { normaliseHostname } from '../domain/destination-policy.js';
import { DomainBlocklist } from '../domain/domain-blocklist.js';
import type { Logger } from '../observability/logger.js';

/** How often the file's modification time is looked at (a stat, nothing more). */
const CHECK_EVERY_MS = 1000;

/**
 * HOP_BLOCKLIST_FILE, kept current: read at start (a file that cannot be read stops the
 * start), then read again whenever it changes, so a domain added while hop runs stops
 * redirecting within a second or two. A later read that fails keeps the list it had.
 * Polled rather than watched with inotify: editors and config tools replace files by
 * renaming, which an inotify watch on the old file never sees.
 */
export function openBlocklistFile(
  file: string | undefined,
  logger: Logger,
): { blocklist: DomainBlocklist; close: () => void } {
  if (file === undefined) return { blocklist: new DomainBlocklist(), close: () => undefined };
  let domains: string[];
  try {
    domains = parseBlocklist(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([`HOP_BLOCKLIST_FILE=${JSON.stringify(file)} cannot be read: ${reason}`]);
  }
  const blocklist = new DomainBlocklist(domains);
  const reload = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    try {
      blocklist.replace(parseBlocklist(readFileSync(file, 'utf8')));
      logger.info({ domains: blocklist.size }, 'blocklist reloaded');
    } catch (error) {
      logger.warn({ err: error }, 'blocklist could not be read again; keeping the old one');
    }
  };
  watchFile(file, { interval: CHECK_EVERY_MS, persistent: false }, reload);
  return {
    blocklist,
    close: () => {
      unwatchFile(file, reload);
    },
  };
}

/** One domain a line; blank lines and `#` comments ignored; subdomains are blocked too. */
export function parseBlocklist(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
    .filter((line) => line !== '')
    .map((domain) => normaliseHostname(domain));
}

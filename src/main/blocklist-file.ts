import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { ConfigError } from '../config/load-config.js';
import { normaliseHostname } from '../domain/destination-policy.js';
import { DomainBlocklist } from '../domain/domain-blocklist.js';
import { reloadBlocklist, type BlocklistFile } from '../jobs/reload-blocklist.js';
import type { PeriodicJob } from '../jobs/job-scheduler.js';
import type { Logger } from '../observability/logger.js';

/**
 * HOP_BLOCKLIST_FILE: read at start (a file that cannot be read stops the start), with the
 * job that reads it again whenever it changes. Unset: an empty list and no job.
 */
export function openBlocklistFile(
  file: string | undefined,
  logger: Logger,
): { blocklist: DomainBlocklist; reload: PeriodicJob | null } {
  if (file === undefined) return { blocklist: new DomainBlocklist(), reload: null };
  let domains: string[];
  let readAt: string | null;
  try {
    domains = parseBlocklist(readFileSync(file, 'utf8'));
    readAt = stampOf(statSync(file));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([`HOP_BLOCKLIST_FILE=${JSON.stringify(file)} cannot be read: ${reason}`]);
  }
  const blocklist = new DomainBlocklist(domains);
  return {
    blocklist,
    reload: reloadBlocklist({ file: blocklistFileOnDisk(file), readAt, blocklist, logger }),
  };
}

function blocklistFileOnDisk(file: string): BlocklistFile {
  return {
    stamp: () => stat(file).then(stampOf, () => null),
    read: () => readFile(file, 'utf8').then(parseBlocklist),
  };
}

function stampOf(stats: Stats): string {
  return `${stats.mtimeMs}:${stats.size}`;
}

/** One domain a line; blank lines and `#` comments ignored; subdomains are blocked too. */
export function parseBlocklist(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
    .filter((line) => line !== '')
    .map((domain) => normaliseHostname(domain));
}

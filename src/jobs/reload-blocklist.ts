import type { DomainBlocklist } from '../domain/domain-blocklist.js';
import type { Logger } from '../observability/logger.js';
import type { PeriodicJob } from './job-scheduler.js';

/** How often the file's modification time is looked at (a stat, nothing more). */
const BLOCKLIST_CHECK_EVERY_MS = 1000;

/** HOP_BLOCKLIST_FILE as the job sees it (src/main/blocklist-file.ts reads the disk). */
export interface BlocklistFile {
  /** Changes whenever the file does (its modification time and size); null while it cannot be looked at. */
  stamp(): Promise<string | null>;
  /** The file's domains, or a rejection when it cannot be read. */
  read(): Promise<readonly string[]>;
}

export interface ReloadBlocklistOptions {
  readonly file: BlocklistFile;
  /** The stamp of the file the blocklist was read from at start. */
  readonly readAt: string | null;
  readonly blocklist: DomainBlocklist;
  readonly logger: Logger;
}

/**
 * Keeps HOP_BLOCKLIST_FILE current: reads it again whenever it changes, so a domain added
 * while hop runs stops redirecting within a second or two. A read that fails keeps the list
 * it had. Polled rather than watched with inotify: editors and config tools replace files
 * by renaming, which an inotify watch on the old file never sees.
 */
export function reloadBlocklist(options: ReloadBlocklistOptions): PeriodicJob {
  const { file, blocklist, logger } = options;
  let seen = options.readAt;
  return {
    name: 'reload-blocklist',
    everyMs: BLOCKLIST_CHECK_EVERY_MS,
    runAtStart: false,
    run: async () => {
      const stamp = await file.stamp();
      if (stamp === seen) return;
      seen = stamp;
      try {
        blocklist.replace(await file.read());
        logger.info({ domains: blocklist.size }, 'blocklist reloaded');
      } catch (error) {
        logger.warn({ err: error }, 'blocklist could not be read again; keeping the old one');
      }
    },
    failing: 'blocklist check failed unexpectedly; retrying',
  };
}

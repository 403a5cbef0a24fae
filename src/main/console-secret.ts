import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';

const SECRET_FILE = 'console-secret';

/**
 * The secret console sessions are signed with, besides the key's stored hash: so that a
 * copy of the database alone cannot make a session. HOP_CONSOLE_SECRET when given (it must
 * be the same on every instance); on the embedded store, one made at first start and kept
 * beside hop.db, readable by its owner only; scaled out without one, none, and a warning.
 */
export function resolveConsoleSecret(config: Config, logger: Logger): Buffer | null {
  if (config.consoleSecret !== undefined) return Buffer.from(config.consoleSecret, 'utf8');
  if (config.database !== undefined) {
    logger.warn(
      'HOP_CONSOLE_SECRET is not set: console sessions are signed with key hashes alone, so a copy of the key table could make one; set the same secret on every instance',
    );
    return null;
  }
  const file = join(config.dataDir, SECRET_FILE);
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  // 'wx': two processes starting at once on one data dir keep the first one's secret.
  try {
    writeFileSync(file, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  }
}

import type { Config } from '../config/config.js';
import type { ConsoleDeps } from '../http/app-deps.js';
import type { Logger } from '../observability/logger.js';
import type { RecentRedirects } from '../observability/recent-redirects.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { ScannerThrottle } from '../services/protection/scanner-throttle.js';
import type { CodeParts } from './compose-codes.js';
import { loadConsoleAssets } from './console-assets.js';
import { resolveConsoleSecret } from './console-secret.js';
import type { KeyUses } from '../services/keys/key-uses.js';

/** Refused console sign-ins an address may make in 10 minutes before it waits 10 minutes. */
const CONSOLE_SIGN_IN_LIMIT = { threshold: 10, windowMs: 600_000, coolDownMs: 600_000 };
/** A console sign-in lasts a working day; signing in again is one paste of the key. */
const CONSOLE_SESSION_TTL_MS = 12 * 3_600_000;
/** Built by `npm run build:console` (scripts/build-console.ts); src/main and dist/main sit alike. */
const CONSOLE_ASSETS_DIR = new URL('../../console/dist/', import.meta.url);

/** The admin console (`/admin`): sessions, the dashboard's sources, the built assets. */
export function composeConsole(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  parts: {
    readonly serving: boolean;
    readonly codes: CodeParts;
    readonly recentRedirects: () => RecentRedirects;
    /** The API's record of keys' last use: a console session is a use of its key. */
    readonly keyUses: KeyUses;
  },
): ConsoleDeps {
  const { codes, recentRedirects } = parts;
  // Made (or read, or warned about) by hop serve at start; other commands never ask, so
  // `hop links list` on a read-only data dir writes nothing.
  let secret: Buffer | null | undefined;
  const consoleSecret = () =>
    (secret = secret === undefined ? resolveConsoleSecret(config, logger) : secret);
  if (parts.serving) consoleSecret();
  return {
    sessions: {
      keys: store.keys,
      clock,
      ttlMs: CONSOLE_SESSION_TTL_MS,
      secret: consoleSecret,
      signInThrottle: new ScannerThrottle({ ...CONSOLE_SIGN_IN_LIMIT, now: () => clock.now() }),
      uses: parts.keyUses,
    },
    dashboard: {
      links: store.links,
      clicks: store.clicks,
      clock,
      linkCounts: () => codes.linkCounts.current(),
      recentRedirects,
    },
    assets: loadConsoleAssets(CONSOLE_ASSETS_DIR),
    secureCookie: config.publicUrl.startsWith('https:'),
  };
}

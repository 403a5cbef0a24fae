import { CODE_ALPHABETS, CODE_STRATEGIES, LOG_LEVELS } from './config.js';
import {
  parseBaseUrl,
  parseDuration,
  parseDurationOrNever,
  parseInteger,
  parseNonEmpty,
  parseOneOf,
  parseProbability,
  parseRate,
  parseSecret,
  parseHost,
  parseRedisUrl,
  parseHostPortList,
  parseNatsServers,
  parseHeaderName,
  parseStreamName,
  parseSwitch,
  parsePostgresUrl,
  parseSqlIdentifier,
} from './parsers.js';

export interface EnvEntry {
  readonly name: string;
  /** The raw default, as a person would write it; undefined = unset. */
  readonly default: string | undefined;
  readonly doc: string;
  readonly parse: (raw: string) => unknown;
  /** Never echo the value: it is, or may carry, a credential. */
  readonly secret?: boolean;
}

/** Every HOP_* variable hop reads (SPEC §8). The README's table is made from it. */
export const ENV_SPEC: readonly EnvEntry[] = [
  {
    name: 'HOP_HOST',
    default: '0.0.0.0',
    doc: 'Address `hop serve` listens on.',
    parse: parseHost,
  },
  {
    name: 'HOP_PORT',
    default: '8080',
    doc: 'Port `hop serve` listens on (0 = any free port).',
    parse: parseInteger(0, 65535),
  },
  {
    name: 'HOP_PUBLIC_URL',
    default: undefined,
    doc: 'Base of every short_url; default http://localhost:<port>.',
    parse: parseBaseUrl,
  },
  {
    name: 'HOP_DATA_DIR',
    default: './data',
    doc: 'Folder of the embedded databases (hop.db, clicks.db) and other files.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_DATABASE_URL',
    default: undefined,
    doc: 'PostgreSQL for many instances, e.g. postgres://hop@db:5432/hop (unset: embedded SQLite in HOP_DATA_DIR).',
    parse: parsePostgresUrl,
    secret: true,
  },
  {
    name: 'HOP_DATABASE_REPLICA_URL',
    default: undefined,
    doc: 'A PostgreSQL streaming replica for redirect reads; a code it lacks is read again from the primary.',
    parse: parsePostgresUrl,
    secret: true,
  },
  {
    name: 'HOP_DATABASE_SCHEMA',
    default: 'public',
    doc: "PostgreSQL schema of hop's tables; created by the migrations if missing.",
    parse: parseSqlIdentifier,
  },
  {
    name: 'HOP_DATABASE_POOL_SIZE',
    default: '10',
    doc: 'PostgreSQL connections per pool; an instance has two (writes and other reads, and redirect reads).',
    parse: parseInteger(1, 1000),
  },
  {
    name: 'HOP_STORE_TIMEOUT',
    default: '30ms',
    doc: "Longest a redirect's PostgreSQL read may run (statement_timeout); past it the redirect is a 503, never a guess.",
    parse: parseDuration,
  },
  {
    name: 'HOP_STATEMENT_TIMEOUT',
    default: '5s',
    doc: 'Longest any other PostgreSQL statement may run (creates, edits, sweeps, click folds).',
    parse: parseDuration,
  },
  {
    name: 'HOP_REDIS_URL',
    default: undefined,
    doc: 'Redis for the shared cache (L2) and invalidation broadcasts, e.g. redis://127.0.0.1:6379.',
    parse: parseRedisUrl,
    secret: true,
  },
  {
    name: 'HOP_REDIS_CLUSTER',
    default: undefined,
    doc: 'Redis Cluster seed nodes host:port,… for L2 and broadcasts (instead of HOP_REDIS_URL).',
    parse: parseHostPortList,
  },
  {
    name: 'HOP_NATS_URL',
    default: undefined,
    doc: 'NATS servers for click events, e.g. nats://127.0.0.1:4222: `hop serve` publishes to JetStream and `hop worker` folds them (unset: an embedded queue, folded in process).',
    parse: parseNatsServers,
    secret: true,
  },
  {
    name: 'HOP_BOOTSTRAP_ADMIN_KEY',
    default: undefined,
    doc: 'Admin key created at start if absent; unset, the first start prints a generated one.',
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_CODE_STRATEGY',
    default: 'random',
    doc: 'How codes are generated: random, pool, snowflake (guessable), permutation or hash.',
    parse: parseOneOf(CODE_STRATEGIES),
  },
  {
    name: 'HOP_CODE_LENGTH',
    default: '7',
    doc: 'Characters in a generated code (the hash strategy takes 6 unless this is set; permutation at most 8).',
    parse: parseInteger(4, 32),
  },
  {
    name: 'HOP_GUESS_BOUND',
    default: '1e-6',
    doc: 'Guess probability (active links / code space) above which generated codes get one more character.',
    parse: parseProbability,
  },
  {
    name: 'HOP_CODE_ALPHABET',
    default: 'base62',
    doc: 'Alphabet of generated codes.',
    parse: parseOneOf(CODE_ALPHABETS),
  },
  {
    name: 'HOP_DEFAULT_TTL',
    default: '2y',
    doc: 'Lifetime of a link created without expiry (0 = never).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_MAX_TTL',
    default: '10y',
    doc: 'Longest lifetime a link may ask for (0 = unbounded).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_CREATE_RATE',
    default: '20/s:100',
    doc: 'Creates per API key, rate:burst (admin keys exempt; off = unlimited).',
    parse: parseRate,
  },
  {
    name: 'HOP_MAX_URL_LENGTH',
    default: '2048',
    doc: 'Longest destination accepted, in characters.',
    parse: parseInteger(32, 65536),
  },
  {
    name: 'HOP_BLOCKLIST_FILE',
    default: undefined,
    doc: 'File of blocked domains, one a line (# comments).',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_LOG_LEVEL',
    default: 'info',
    doc: 'Log level; no per-request lines at info.',
    parse: parseOneOf(LOG_LEVELS),
  },
  {
    name: 'HOP_SHUTDOWN_TIMEOUT',
    default: '10s',
    doc: 'How long SIGTERM waits for in-flight requests.',
    parse: parseDuration,
  },
  {
    name: 'HOP_L1_MAX_ENTRIES',
    default: '100000',
    doc: 'Codes the in-process cache (L1) holds at most.',
    parse: parseInteger(1, 50_000_000),
  },
  {
    name: 'HOP_L1_MAX_MB',
    default: '64',
    doc: 'Approximate memory bound of L1, in MiB.',
    parse: parseInteger(1, 65_536),
  },
  {
    name: 'HOP_L1_TTL',
    default: '60s',
    doc: 'How long L1 keeps a link (±10% jitter); bounds staleness if an invalidation is lost.',
    parse: parseDuration,
  },
  {
    name: 'HOP_L1_NEGATIVE_TTL',
    default: '10s',
    doc: 'How long L1 remembers that a code does not exist.',
    parse: parseDuration,
  },
  {
    name: 'HOP_POOL_FILE',
    default: undefined,
    doc: 'Code pool file of the pool strategy (made by `hop pool generate`); default <data dir>/pool.codes.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_POOL_BATCH',
    default: '10000',
    doc: 'Codes a server claims from the pool at a time; it claims more when a fifth remain.',
    parse: parseInteger(10, 1_000_000),
  },
  {
    name: 'HOP_WORKER_ID',
    default: '0',
    doc: 'Worker id of the snowflake strategy, 0-1023, unique per instance.',
    parse: parseInteger(0, 1023),
  },
  {
    name: 'HOP_PERMUTATION_KEY',
    default: undefined,
    doc: 'Secret key of the permutation strategy (required for it); never change it once codes exist.',
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_SWEEP_INTERVAL',
    default: '10m',
    doc: 'How often the sweeper marks expired links and reclaims codes; 0 = never (`hop sweep` runs it once).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_RECLAIM_GRACE',
    default: '30d',
    doc: 'How long generated codes of expired or deleted links rest before reuse; custom aliases never are.',
    parse: parseDuration,
  },
  {
    name: 'HOP_REDIS_PREFIX',
    default: 'hop:',
    doc: 'Prefix of every Redis key and channel hop uses.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_L2_TTL',
    default: '24h',
    doc: 'How long Redis keeps a link (±10% jitter).',
    parse: parseDuration,
  },
  {
    name: 'HOP_L2_NEGATIVE_TTL',
    default: '10s',
    doc: 'How long Redis remembers that a code does not exist.',
    parse: parseDuration,
  },
  {
    name: 'HOP_CACHE_TIMEOUT',
    default: '8ms',
    doc: 'Longest wait for Redis before it counts as a miss (and a failure for the breaker).',
    parse: parseDuration,
  },
  {
    name: 'HOP_ANALYTICS',
    default: 'on',
    doc: 'Count clicks (off: redirects record nothing).',
    parse: parseSwitch,
  },
  {
    name: 'HOP_COUNTRY_HEADER',
    default: undefined,
    doc: "Request header a trusted edge puts the client's country in, e.g. cf-ipcountry (unset: every click counts as ZZ).",
    parse: parseHeaderName,
  },
  {
    name: 'HOP_CLICK_BUFFER',
    default: '100000',
    doc: 'Clicks held in memory until flushed; when full, further clicks are dropped and counted.',
    parse: parseInteger(1, 10_000_000),
  },
  {
    name: 'HOP_CLICK_FLUSH_INTERVAL',
    default: '1s',
    doc: 'How often buffered clicks are sent on: at most this much is lost if the process dies.',
    parse: parseDuration,
  },
  {
    name: 'HOP_CLICK_BATCH',
    default: '5000',
    doc: 'Clicks per JetStream send and per fold by an in-process aggregator or hop worker (embedded, a flush is sent whole, as one queue row of sums).',
    parse: parseInteger(1, 100_000),
  },
  {
    name: 'HOP_CLICK_MAX_REFERRERS',
    default: '50',
    doc: 'Referrer hosts kept per link and hour; further ones count as other.',
    parse: parseInteger(1, 10_000),
  },
  {
    name: 'HOP_NATS_STREAM',
    default: 'HOP_CLICKS',
    doc: 'JetStream stream of click events (its subject is <stream>.clicks).',
    parse: parseStreamName,
  },
  {
    name: 'HOP_WORKER_PORT',
    default: '8081',
    doc: 'Port `hop worker` answers /metrics and /healthz on (on HOP_HOST; 0 = any free port).',
    parse: parseInteger(0, 65535),
  },
  {
    name: 'HOP_NATS_ACK_WAIT',
    default: '30s',
    doc: 'How long a worker may hold clicks unacknowledged before JetStream hands them to another (set when the stream is first used).',
    parse: parseDuration,
  },
];

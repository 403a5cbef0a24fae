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
  parseHttpUrl,
  parseStreamName,
  parseSwitch,
  parsePostgresUrl,
  parseSqlIdentifier,
  parseTrustedProxies,
} from './parsers.js';

export interface EnvEntry {
  readonly name: string;
  /** The Config field it fills (PostgresConfig's, for the `postgres` group). */
  readonly key: string;
  /** The raw default, as a person would write it; undefined = unset. */
  readonly default: string | undefined;
  readonly doc: string;
  /** Its value, or a ParseError saying what it accepts; its return type is the field's. */
  readonly parse: (raw: string) => unknown;
  /** Never echo the value: it is, or may carry, a credential. */
  readonly secret?: boolean;
  /** Fills `config.postgres`, which is undefined unless HOP_DATABASE_URL is set. */
  readonly group?: 'postgres';
}

/** HOP_L1_MAX_MB is written in MiB and kept in bytes. */
function inBytes(parseMebibytes: (raw: string) => number): (raw: string) => number {
  return (raw) => parseMebibytes(raw) * 1024 * 1024;
}

/**
 * Every HOP_* variable hop reads (SPEC §8), written once: Config's type and loadConfig are
 * derived from it, and the README's table is made from it. Adding a variable is one row.
 */
export const ENV_SPEC = [
  {
    name: 'HOP_HOST',
    key: 'host',
    default: '0.0.0.0',
    doc: 'Address `hop serve` listens on.',
    parse: parseHost,
  },
  {
    name: 'HOP_PORT',
    key: 'port',
    default: '8080',
    doc: 'Port `hop serve` listens on (0 = any free port).',
    parse: parseInteger(0, 65535),
  },
  {
    name: 'HOP_PUBLIC_URL',
    key: 'publicUrl',
    default: undefined,
    doc: 'Base of every short_url; default http://localhost:<port>.',
    parse: parseBaseUrl,
  },
  {
    name: 'HOP_ROOT_REDIRECT',
    key: 'rootRedirect',
    default: undefined,
    doc: '`GET /` answers a 302 to this http(s) URL instead of its page (ADR 0093).',
    parse: parseHttpUrl,
  },
  {
    name: 'HOP_DATA_DIR',
    key: 'dataDir',
    default: './data',
    doc: 'Folder of the embedded databases (hop.db, clicks.db) and other files.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_DATABASE_URL',
    key: 'url',
    group: 'postgres',
    default: undefined,
    doc: 'PostgreSQL for many instances, e.g. postgres://hop@db:5432/hop (unset: embedded SQLite in HOP_DATA_DIR).',
    parse: parsePostgresUrl,
    secret: true,
  },
  {
    name: 'HOP_DATABASE_REPLICA_URL',
    key: 'replicaUrl',
    group: 'postgres',
    default: undefined,
    doc: 'A PostgreSQL streaming replica for redirect reads; a code it lacks is read again from the primary.',
    parse: parsePostgresUrl,
    secret: true,
  },
  {
    name: 'HOP_DATABASE_SCHEMA',
    key: 'schema',
    group: 'postgres',
    default: 'public',
    doc: "PostgreSQL schema of hop's tables; created by the migrations if missing.",
    parse: parseSqlIdentifier,
  },
  {
    name: 'HOP_DATABASE_POOL_SIZE',
    key: 'poolSize',
    group: 'postgres',
    default: '10',
    doc: 'PostgreSQL connections per pool; an instance has two (writes and other reads; redirect reads), three with a replica (redirect reads it sends on to the primary).',
    parse: parseInteger(1, 1000),
  },
  {
    name: 'HOP_STORE_TIMEOUT',
    key: 'redirectReadTimeoutMs',
    group: 'postgres',
    default: '30ms',
    doc: "Longest a redirect's PostgreSQL read may run (statement_timeout); past it the redirect is a 503, never a guess.",
    parse: parseDuration,
  },
  {
    name: 'HOP_STATEMENT_TIMEOUT',
    key: 'statementTimeoutMs',
    group: 'postgres',
    default: '5s',
    doc: 'Longest any other PostgreSQL statement may run (creates, edits, sweeps, click folds).',
    parse: parseDuration,
  },
  {
    name: 'HOP_REDIS_URL',
    key: 'redisUrl',
    default: undefined,
    doc: 'Redis for the shared cache (L2) and invalidation broadcasts, e.g. redis://127.0.0.1:6379.',
    parse: parseRedisUrl,
    secret: true,
  },
  {
    name: 'HOP_REDIS_CLUSTER',
    key: 'redisClusterNodes',
    default: undefined,
    doc: 'Redis Cluster seed nodes host:port,… for L2 and broadcasts (instead of HOP_REDIS_URL).',
    parse: parseHostPortList,
  },
  {
    name: 'HOP_NATS_URL',
    key: 'natsServers',
    default: undefined,
    doc: 'NATS servers for click events, e.g. nats://127.0.0.1:4222: `hop serve` publishes to JetStream and `hop worker` folds them (unset: an embedded queue, folded in process).',
    parse: parseNatsServers,
    secret: true,
  },
  {
    name: 'HOP_BOOTSTRAP_ADMIN_KEY',
    key: 'bootstrapAdminKey',
    default: undefined,
    doc: 'Admin key created at start if absent; unset, the first start prints a generated one.',
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_CODE_STRATEGY',
    key: 'codeStrategy',
    default: 'random',
    doc: 'How codes are generated: random, pool, snowflake (guessable), permutation or hash.',
    parse: parseOneOf(CODE_STRATEGIES),
  },
  {
    name: 'HOP_CODE_LENGTH',
    key: 'codeLength',
    default: '7',
    doc: 'Characters in a generated code (the hash strategy takes 6 unless this is set; permutation at most 8).',
    parse: parseInteger(4, 32),
  },
  {
    name: 'HOP_GUESS_BOUND',
    key: 'guessBound',
    default: '1e-6',
    doc: 'Guess probability (active links / code space) above which generated codes get one more character.',
    parse: parseProbability,
  },
  {
    name: 'HOP_CODE_ALPHABET',
    key: 'codeAlphabet',
    default: 'base62',
    doc: 'Alphabet of generated codes.',
    parse: parseOneOf(CODE_ALPHABETS),
  },
  {
    name: 'HOP_DEFAULT_TTL',
    key: 'defaultTtlMs',
    default: '2y',
    doc: 'Lifetime of a link created without expiry (0 = never).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_MAX_TTL',
    key: 'maxTtlMs',
    default: '10y',
    doc: 'Longest lifetime a link may ask for (0 = unbounded).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_CREATE_RATE',
    key: 'createRate',
    default: '20/s:100',
    doc: 'Creates per API key and per client address, rate:burst (admin keys exempt; off = unlimited).',
    parse: parseRate,
  },
  {
    name: 'HOP_MAX_URL_LENGTH',
    key: 'maxUrlLength',
    default: '2048',
    doc: 'Longest destination accepted, in characters.',
    parse: parseInteger(32, 65536),
  },
  {
    name: 'HOP_BLOCKLIST_FILE',
    key: 'blocklistFile',
    default: undefined,
    doc: 'File of blocked domains, one a line (# comments).',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_TRUST_PROXY',
    key: 'trustProxy',
    default: undefined,
    doc: 'Proxies whose X-Forwarded-For is believed: addresses, CIDRs or loopback, linklocal, uniquelocal, comma-separated; unset = the socket address is the client.',
    parse: parseTrustedProxies,
  },
  {
    name: 'HOP_SCANNER_THRESHOLD',
    key: 'scannerThreshold',
    default: '100',
    doc: 'Unknown codes a client may ask for within HOP_SCANNER_WINDOW before it is throttled (0 = never).',
    parse: parseInteger(0, 1_000_000),
  },
  {
    name: 'HOP_SCANNER_WINDOW',
    key: 'scannerWindowMs',
    default: '1m',
    doc: "Window in which a client's unknown codes are counted.",
    parse: parseDuration,
  },
  {
    name: 'HOP_SCANNER_COOLDOWN',
    key: 'scannerCoolDownMs',
    default: '10m',
    doc: 'How long a throttled client gets 429 for unknown codes.',
    parse: parseDuration,
  },
  {
    name: 'HOP_MAX_IN_FLIGHT',
    key: 'maxInFlight',
    default: '1000',
    doc: 'Requests in flight past which creates, analytics and admin get 503 (redirects that need a read: past twice this).',
    parse: parseInteger(1, 1_000_000),
  },
  {
    name: 'HOP_SHED_LAG',
    key: 'shedLagMs',
    default: '200ms',
    doc: 'Event-loop lag (a moving average) past which creates, analytics and admin get 503 (redirects that need a read: past twice this).',
    parse: parseDuration,
  },
  {
    name: 'HOP_HEADERS_TIMEOUT',
    key: 'headersTimeoutMs',
    default: '10s',
    doc: 'Longest a client may take to send its request headers.',
    parse: parseDuration,
  },
  {
    name: 'HOP_REQUEST_TIMEOUT',
    key: 'requestTimeoutMs',
    default: '30s',
    doc: 'Longest a client may take to send a whole request.',
    parse: parseDuration,
  },
  {
    name: 'HOP_LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    doc: 'Log level; no per-request lines at info.',
    parse: parseOneOf(LOG_LEVELS),
  },
  {
    name: 'HOP_SHUTDOWN_TIMEOUT',
    key: 'shutdownTimeoutMs',
    default: '10s',
    doc: 'How long SIGTERM waits for in-flight requests.',
    parse: parseDuration,
  },
  {
    name: 'HOP_EVENT_POLL_INTERVAL',
    key: 'eventPollIntervalMs',
    default: '250ms',
    doc: "How often `GET /v1/events`' one poller per process reads the event logs, while a stream is open.",
    parse: parseDuration,
  },
  {
    name: 'HOP_EVENT_HEARTBEAT',
    key: 'eventHeartbeatMs',
    default: '15s',
    doc: 'How often an open event stream sends a comment line, so that proxies keep it open.',
    parse: parseDuration,
  },
  {
    name: 'HOP_EVENT_STREAMS_PER_KEY',
    key: 'eventStreamsPerKey',
    default: '5',
    doc: 'Event streams one API key may hold open at once on one instance; past it, 429.',
    parse: parseInteger(1, 10_000),
  },
  {
    name: 'HOP_L1_MAX_ENTRIES',
    key: 'l1MaxEntries',
    default: '100000',
    doc: 'Codes the in-process cache (L1) holds at most.',
    parse: parseInteger(1, 50_000_000),
  },
  {
    name: 'HOP_L1_MAX_MB',
    key: 'l1MaxBytes',
    default: '64',
    doc: 'Approximate memory bound of L1, in MiB.',
    parse: inBytes(parseInteger(1, 65_536)),
  },
  {
    name: 'HOP_L1_TTL',
    key: 'l1TtlMs',
    default: '60s',
    doc: 'How long L1 keeps a link (±10% jitter); bounds staleness if an invalidation is lost.',
    parse: parseDuration,
  },
  {
    name: 'HOP_L1_NEGATIVE_TTL',
    key: 'l1NegativeTtlMs',
    default: '10s',
    doc: 'How long L1 remembers that a code does not exist.',
    parse: parseDuration,
  },
  {
    name: 'HOP_KNOWN_CODES',
    key: 'knownCodes',
    default: 'on',
    doc: 'Keep every code in a Bloom filter so unknown codes are 404 without a store read (~1.2 bytes a code; off beyond a few hundred million links).',
    parse: parseSwitch,
  },
  {
    name: 'HOP_POOL_FILE',
    key: 'poolFile',
    default: undefined,
    doc: 'Code pool file of the pool strategy (made by `hop pool generate`); default <data dir>/pool.codes.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_POOL_BATCH',
    key: 'poolBatch',
    default: '10000',
    doc: 'Codes a server claims from the pool at a time; it claims more when a fifth remain.',
    parse: parseInteger(10, 1_000_000),
  },
  {
    name: 'HOP_WORKER_ID',
    key: 'workerId',
    default: '0',
    doc: 'Worker id of the snowflake strategy, 0-1023, unique per instance.',
    parse: parseInteger(0, 1023),
  },
  {
    name: 'HOP_PERMUTATION_KEY',
    key: 'permutationKey',
    default: undefined,
    doc: 'Secret key of the permutation strategy (required for it); never change it once codes exist.',
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_CONSOLE_SECRET',
    key: 'consoleSecret',
    default: undefined,
    doc: "Secret mixed into the admin console's session signatures, the same on every instance (unset: a random one kept in HOP_DATA_DIR/console-secret on the embedded store; on PostgreSQL, sessions are signed with key hashes alone and hop warns).",
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_METRICS_TOKEN',
    key: 'metricsToken',
    default: undefined,
    doc: 'When set, /metrics (of `hop serve` and `hop worker`) answers only `Authorization: Bearer <this token>` (unset: /metrics is open, as for a scraper on a private network).',
    parse: parseSecret,
    secret: true,
  },
  {
    name: 'HOP_SWEEP_INTERVAL',
    key: 'sweepIntervalMs',
    default: '10m',
    doc: 'How often the sweeper marks expired links and reclaims codes; 0 = never (`hop sweep` runs it once).',
    parse: parseDurationOrNever,
  },
  {
    name: 'HOP_RECLAIM_GRACE',
    key: 'reclaimGraceMs',
    default: '30d',
    doc: 'How long generated codes of expired or deleted links rest before reuse; custom aliases never are.',
    parse: parseDuration,
  },
  {
    name: 'HOP_REDIS_PREFIX',
    key: 'redisPrefix',
    default: 'hop:',
    doc: 'Prefix of every Redis key and channel hop uses.',
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_L2_TTL',
    key: 'l2TtlMs',
    default: '24h',
    doc: 'How long Redis keeps a link (±10% jitter).',
    parse: parseDuration,
  },
  {
    name: 'HOP_L2_NEGATIVE_TTL',
    key: 'l2NegativeTtlMs',
    default: '10s',
    doc: 'How long Redis remembers that a code does not exist.',
    parse: parseDuration,
  },
  {
    name: 'HOP_CACHE_TIMEOUT',
    key: 'cacheTimeoutMs',
    default: '8ms',
    doc: 'Longest wait for Redis before it counts as a miss (and a failure for the breaker).',
    parse: parseDuration,
  },
  {
    name: 'HOP_ANALYTICS',
    key: 'analytics',
    default: 'on',
    doc: 'Count clicks (off: redirects record nothing).',
    parse: parseSwitch,
  },
  {
    name: 'HOP_COUNTRY_HEADER',
    key: 'countryHeader',
    default: undefined,
    doc: "Request header a trusted edge puts the client's country in, e.g. cf-ipcountry (unset: the client's address is looked up in the IP database, HOP_GEOIP_DB or the bundled one).",
    parse: parseHeaderName,
  },
  {
    name: 'HOP_GEOIP_DB',
    key: 'geoipDatabase',
    default: undefined,
    doc: "IP database a click's country is looked up in when HOP_COUNTRY_HEADER is unset: a GeoLite2 or DB-IP City .mmdb file, which adds cities (unset: the CC0 country database bundled with hop).",
    parse: parseNonEmpty,
  },
  {
    name: 'HOP_CLICK_BUFFER',
    key: 'clickBufferSize',
    default: '100000',
    doc: 'Clicks held in memory until flushed; when full, further clicks are dropped and counted.',
    parse: parseInteger(1, 10_000_000),
  },
  {
    name: 'HOP_CLICK_FLUSH_INTERVAL',
    key: 'clickFlushIntervalMs',
    default: '1s',
    doc: 'How often buffered clicks are sent on: at most this much is lost if the process dies.',
    parse: parseDuration,
  },
  {
    name: 'HOP_CLICK_BATCH',
    key: 'clickBatchSize',
    default: '5000',
    doc: 'Clicks per JetStream send and per fold by an in-process aggregator or hop worker (embedded, a flush is sent whole, as one queue row of sums).',
    parse: parseInteger(1, 100_000),
  },
  {
    name: 'HOP_CLICK_MAX_REFERRERS',
    key: 'clickMaxReferrers',
    default: '50',
    doc: 'Referrer hosts kept per link and hour; further ones count as other.',
    parse: parseInteger(1, 10_000),
  },
  {
    name: 'HOP_NATS_STREAM',
    key: 'natsStream',
    default: 'HOP_CLICKS',
    doc: 'JetStream stream of click events (its subject is <stream>.clicks).',
    parse: parseStreamName,
  },
  {
    name: 'HOP_WORKER_PORT',
    key: 'workerPort',
    default: '8081',
    doc: 'Port `hop worker` answers /metrics and /healthz on (on HOP_HOST; 0 = any free port).',
    parse: parseInteger(0, 65535),
  },
  {
    name: 'HOP_NATS_ACK_WAIT',
    key: 'natsAckWaitMs',
    default: '30s',
    doc: 'How long a worker may hold clicks unacknowledged before JetStream hands them to another (set when the stream is first used).',
    parse: parseDuration,
  },
] as const satisfies readonly EnvEntry[];

type EnvRow = (typeof ENV_SPEC)[number];
/** A row's value: what its parser returns, or undefined when it has no default. */
type ValueOf<Row extends EnvRow> = Row['default'] extends string
  ? ReturnType<Row['parse']>
  : ReturnType<Row['parse']> | undefined;
type ValuesOf<Rows extends EnvRow> = { readonly [Row in Rows as Row['key']]: ValueOf<Row> };

/** The values of the rows outside any group, by Config field. */
export type EnvValues = ValuesOf<Exclude<EnvRow, { readonly group: 'postgres' }>>;
/** The values of the `postgres` group's rows, by PostgresConfig field. */
export type PostgresEnvValues = ValuesOf<Extract<EnvRow, { readonly group: 'postgres' }>>;

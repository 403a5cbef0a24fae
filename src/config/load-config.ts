import { join, resolve } from 'node:path';
import type { CodeAlphabet, CodeStrategy, Config, LogLevel, PostgresConfig } from './config.js';
import { ENV_SPEC } from './env-spec.js';
import { ParseError, type RateRule } from './parsers.js';

/** SPEC §2: the hash strategy keeps the first 6 characters of the digest. */
export const HASH_CODE_LENGTH = 6;
/** 64^8 < 2^52, the largest domain the keyed permutation takes; 62^9 and 64^9 are not. */
export const MAX_PERMUTATION_LENGTH = 8;

/** All configuration problems at once, one line each naming the variable. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads HOP_* from `env`, validates every entry of ENV_SPEC, and returns a frozen Config. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const values = new Map<string, unknown>();
  const problems: string[] = [];
  for (const entry of ENV_SPEC) {
    const given = env[entry.name];
    const raw = given === undefined || given === '' ? entry.default : given;
    if (raw === undefined) continue;
    try {
      values.set(entry.name, entry.parse(raw));
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      const shown = entry.secret === true ? '<hidden>' : JSON.stringify(given);
      problems.push(`${entry.name}=${shown} is invalid: expected ${error.message}.`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const get = <T>(name: string): T => values.get(name) as T;
  const port = get<number>('HOP_PORT');
  const dataDir = resolve(get<string>('HOP_DATA_DIR'));
  const config: Config = {
    host: get<string>('HOP_HOST'),
    port,
    publicUrl: get<string | undefined>('HOP_PUBLIC_URL') ?? `http://localhost:${port}`,
    dataDir,
    databaseFile: join(dataDir, 'hop.db'),
    clicksDatabaseFile: join(dataDir, 'clicks.db'),
    postgres: postgresConfig(get),
    bootstrapAdminKey: get<string | undefined>('HOP_BOOTSTRAP_ADMIN_KEY'),
    codeStrategy: get<CodeStrategy>('HOP_CODE_STRATEGY'),
    // The hash strategy is the seed's "first 6 characters of the digest" unless told otherwise.
    codeLength:
      get<CodeStrategy>('HOP_CODE_STRATEGY') === 'hash' && (env['HOP_CODE_LENGTH'] ?? '') === ''
        ? HASH_CODE_LENGTH
        : get<number>('HOP_CODE_LENGTH'),
    guessBound: get<number>('HOP_GUESS_BOUND'),
    codeAlphabet: get<CodeAlphabet>('HOP_CODE_ALPHABET'),
    workerId: get<number>('HOP_WORKER_ID'),
    poolFile: get<string | undefined>('HOP_POOL_FILE') ?? join(dataDir, 'pool.codes'),
    poolBatch: get<number>('HOP_POOL_BATCH'),
    permutationKey: get<string | undefined>('HOP_PERMUTATION_KEY'),
    consoleSecret: get<string | undefined>('HOP_CONSOLE_SECRET'),
    sweepIntervalMs: get<number | null>('HOP_SWEEP_INTERVAL'),
    reclaimGraceMs: get<number>('HOP_RECLAIM_GRACE'),
    defaultTtlMs: get<number | null>('HOP_DEFAULT_TTL'),
    maxTtlMs: get<number | null>('HOP_MAX_TTL'),
    createRate: get<RateRule | null>('HOP_CREATE_RATE'),
    maxUrlLength: get<number>('HOP_MAX_URL_LENGTH'),
    blocklistFile: get<string | undefined>('HOP_BLOCKLIST_FILE'),
    trustProxy: get<readonly string[] | undefined>('HOP_TRUST_PROXY') ?? [],
    scannerThreshold: get<number>('HOP_SCANNER_THRESHOLD'),
    scannerWindowMs: get<number>('HOP_SCANNER_WINDOW'),
    scannerCoolDownMs: get<number>('HOP_SCANNER_COOLDOWN'),
    maxInFlight: get<number>('HOP_MAX_IN_FLIGHT'),
    shedLagMs: get<number>('HOP_SHED_LAG'),
    headersTimeoutMs: get<number>('HOP_HEADERS_TIMEOUT'),
    requestTimeoutMs: get<number>('HOP_REQUEST_TIMEOUT'),
    logLevel: get<LogLevel>('HOP_LOG_LEVEL'),
    shutdownTimeoutMs: get<number>('HOP_SHUTDOWN_TIMEOUT'),
    l1MaxEntries: get<number>('HOP_L1_MAX_ENTRIES'),
    l1MaxBytes: get<number>('HOP_L1_MAX_MB') * 1024 * 1024,
    l1TtlMs: get<number>('HOP_L1_TTL'),
    l1NegativeTtlMs: get<number>('HOP_L1_NEGATIVE_TTL'),
    knownCodes: get<boolean>('HOP_KNOWN_CODES'),
    redisUrl: get<string | undefined>('HOP_REDIS_URL'),
    redisClusterNodes: get<readonly string[] | undefined>('HOP_REDIS_CLUSTER'),
    redisPrefix: get<string>('HOP_REDIS_PREFIX'),
    l2TtlMs: get<number>('HOP_L2_TTL'),
    l2NegativeTtlMs: get<number>('HOP_L2_NEGATIVE_TTL'),
    cacheTimeoutMs: get<number>('HOP_CACHE_TIMEOUT'),
    analytics: get<boolean>('HOP_ANALYTICS'),
    natsServers: get<readonly string[] | undefined>('HOP_NATS_URL'),
    natsStream: get<string>('HOP_NATS_STREAM'),
    natsAckWaitMs: get<number>('HOP_NATS_ACK_WAIT'),
    workerPort: get<number>('HOP_WORKER_PORT'),
    countryHeader: get<string | undefined>('HOP_COUNTRY_HEADER'),
    clickBufferSize: get<number>('HOP_CLICK_BUFFER'),
    clickFlushIntervalMs: get<number>('HOP_CLICK_FLUSH_INTERVAL'),
    clickBatchSize: get<number>('HOP_CLICK_BATCH'),
    clickMaxReferrers: get<number>('HOP_CLICK_MAX_REFERRERS'),
  };
  if (
    config.defaultTtlMs !== null &&
    config.maxTtlMs !== null &&
    config.defaultTtlMs > config.maxTtlMs
  ) {
    throw new ConfigError([
      `HOP_DEFAULT_TTL=${JSON.stringify(env['HOP_DEFAULT_TTL'] ?? '2y')} is invalid: expected a lifetime no longer than HOP_MAX_TTL.`,
    ]);
  }
  problems.push(...codeStrategyProblems(config));
  if (problems.length > 0) throw new ConfigError(problems);
  if (
    config.postgres === undefined &&
    get<string | undefined>('HOP_DATABASE_REPLICA_URL') !== undefined
  ) {
    throw new ConfigError([
      'HOP_DATABASE_REPLICA_URL is invalid: expected HOP_DATABASE_URL too (a replica serves redirect reads of a primary).',
    ]);
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError([
      'HOP_HEADERS_TIMEOUT is invalid: expected no longer than HOP_REQUEST_TIMEOUT (the headers are part of the request).',
    ]);
  }
  if (config.redisUrl !== undefined && config.redisClusterNodes !== undefined) {
    throw new ConfigError([
      'HOP_REDIS_CLUSTER is invalid: expected either HOP_REDIS_URL or HOP_REDIS_CLUSTER, not both.',
    ]);
  }
  if (config.defaultTtlMs === null && config.maxTtlMs !== null) {
    throw new ConfigError([
      'HOP_DEFAULT_TTL="0" is invalid: expected a finite lifetime while HOP_MAX_TTL bounds links (set HOP_MAX_TTL=0 too).',
    ]);
  }
  return Object.freeze(config);
}

function postgresConfig(get: <T>(name: string) => T): PostgresConfig | undefined {
  const url = get<string | undefined>('HOP_DATABASE_URL');
  if (url === undefined) return undefined;
  return {
    url,
    replicaUrl: get<string | undefined>('HOP_DATABASE_REPLICA_URL'),
    schema: get<string>('HOP_DATABASE_SCHEMA'),
    poolSize: get<number>('HOP_DATABASE_POOL_SIZE'),
    redirectReadTimeoutMs: get<number>('HOP_STORE_TIMEOUT'),
    statementTimeoutMs: get<number>('HOP_STATEMENT_TIMEOUT'),
  };
}

/** What a strategy needs that the rest of the config does not give it. */
function codeStrategyProblems(config: Config): string[] {
  if (config.codeStrategy === 'permutation') {
    const problems: string[] = [];
    if (config.permutationKey === undefined) {
      problems.push(
        'HOP_PERMUTATION_KEY is missing: expected a secret key (20 to 200 characters) for HOP_CODE_STRATEGY=permutation.',
      );
    }
    if (config.codeLength > MAX_PERMUTATION_LENGTH) {
      problems.push(
        `HOP_CODE_LENGTH=${config.codeLength} is invalid: expected at most ${MAX_PERMUTATION_LENGTH} for HOP_CODE_STRATEGY=permutation (its counter is a 52-bit number).`,
      );
    }
    return problems;
  }
  return [];
}

/** HOP_* names in `env` that hop does not know: almost always a typo worth a warning. */
export function unknownHopVariables(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = new Set(ENV_SPEC.map((entry) => entry.name));
  return Object.keys(env).filter((name) => name.startsWith('HOP_') && !known.has(name));
}

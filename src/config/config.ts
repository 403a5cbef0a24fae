import type { RateRule } from './parsers.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const CODE_STRATEGIES = ['random', 'pool', 'snowflake', 'permutation', 'hash'] as const;

export const CODE_ALPHABETS = ['base62', 'base64url'] as const;
export type CodeAlphabet = (typeof CODE_ALPHABETS)[number];
export type CodeStrategy = (typeof CODE_STRATEGIES)[number];

/** The validated, frozen configuration every part of hop receives. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Base of every short URL, without a trailing slash. */
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly databaseFile: string;
  /** The embedded click queue and aggregates, beside hop.db. */
  readonly clicksDatabaseFile: string;
  /** PostgreSQL instead of the embedded files, when set (scaled out). */
  readonly postgres: PostgresConfig | undefined;
  readonly bootstrapAdminKey: string | undefined;
  readonly codeStrategy: CodeStrategy;
  /** Characters in a generated code before the guess bound adds any (hash: 6 unless set). */
  readonly codeLength: number;
  /** Largest guess probability (active links / code space) before codes grow (SPEC §2). */
  readonly guessBound: number;
  readonly codeAlphabet: CodeAlphabet;
  readonly workerId: number;
  readonly poolFile: string;
  /** Codes claimed from the pool at a time (SPEC §2: 10,000). */
  readonly poolBatch: number;
  readonly permutationKey: string | undefined;
  /** Mixed into console session signatures; see src/main/console-secret.ts when unset. */
  readonly consoleSecret: string | undefined;
  /** null: the server never sweeps on its own (`hop sweep` still does). */
  readonly sweepIntervalMs: number | null;
  readonly reclaimGraceMs: number;
  /** null: links never expire by default. */
  readonly defaultTtlMs: number | null;
  /** null: no upper bound on a link's lifetime. */
  readonly maxTtlMs: number | null;
  /** null: creates are not rate limited. */
  readonly createRate: RateRule | null;
  readonly maxUrlLength: number;
  readonly blocklistFile: string | undefined;
  /** Proxies whose X-Forwarded-For names the client; empty: the socket address is the client. */
  readonly trustProxy: readonly string[];
  /** Scanner throttling (SPEC §7); threshold 0 = off. */
  readonly scannerThreshold: number;
  readonly scannerWindowMs: number;
  readonly scannerCoolDownMs: number;
  /** Load shedding (SPEC §7). */
  readonly maxInFlight: number;
  readonly shedLagMs: number;
  /** Slow clients: Node's headersTimeout and requestTimeout. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly logLevel: LogLevel;
  readonly shutdownTimeoutMs: number;
  /** L1, the in-process cache of codes (SPEC §5). */
  readonly l1MaxEntries: number;
  readonly l1MaxBytes: number;
  readonly l1TtlMs: number;
  readonly l1NegativeTtlMs: number;
  /** Load and keep the known-codes filter (each instance reads every code at start). */
  readonly knownCodes: boolean;
  /** L2: Redis, when configured (SPEC §5). */
  readonly redisUrl: string | undefined;
  readonly redisClusterNodes: readonly string[] | undefined;
  readonly redisPrefix: string;
  readonly l2TtlMs: number;
  readonly l2NegativeTtlMs: number;
  readonly cacheTimeoutMs: number;
  /** Click analytics (SPEC §6). */
  readonly analytics: boolean;
  /** NATS servers: click events go through JetStream; unset, through the embedded queue. */
  readonly natsServers: readonly string[] | undefined;
  readonly natsStream: string;
  readonly natsAckWaitMs: number;
  readonly workerPort: number;
  /** Lower-case name of the trusted header carrying the client's country. */
  readonly countryHeader: string | undefined;
  readonly clickBufferSize: number;
  readonly clickFlushIntervalMs: number;
  readonly clickBatchSize: number;
  readonly clickMaxReferrers: number;
}

export interface PostgresConfig {
  readonly url: string;
  readonly replicaUrl: string | undefined;
  readonly schema: string;
  readonly poolSize: number;
  readonly redirectReadTimeoutMs: number;
  readonly statementTimeoutMs: number;
}

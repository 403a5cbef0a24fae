import type { DatabaseEnvValues, EnvValues } from './env-spec.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const CODE_STRATEGIES = ['random', 'pool', 'snowflake', 'permutation', 'hash'] as const;

export const CODE_ALPHABETS = ['base62', 'base64url'] as const;

/** The CPU priority of `hop serve`'s integrations thread (ADR 0132). */
export const INTEGRATIONS_PRIORITIES = ['low', 'server'] as const;
export type CodeAlphabet = (typeof CODE_ALPHABETS)[number];
export type CodeStrategy = (typeof CODE_STRATEGIES)[number];

/**
 * The validated, frozen configuration every part of hop receives: one field per row of
 * ENV_SPEC (the row's doc says what it is), with what is worked out from them.
 */
export type Config = Omit<EnvValues, keyof DerivedConfig> & DerivedConfig;

/** Fields worked out by loadConfig from the rows rather than read as they are. */
interface DerivedConfig {
  /** Base of every short URL, without a trailing slash (default from the port). */
  readonly publicUrl: string;
  /** HOP_DATA_DIR, absolute. */
  readonly dataDir: string;
  readonly databaseFile: string;
  /** The embedded click queue and aggregates, beside hop.db. */
  readonly clicksDatabaseFile: string;
  /** A shared database instead of the embedded files, when HOP_DATABASE_URL is set (scaled out). */
  readonly database: DatabaseConfig | undefined;
  /** Characters in a generated code before the guess bound adds any (hash: 6 unless set). */
  readonly codeLength: number;
  /** Default <data dir>/pool.codes. */
  readonly poolFile: string;
  /** Proxies whose X-Forwarded-For names the client; empty: the socket address is the client. */
  readonly trustProxy: readonly string[];
  /**
   * HOP_NATS_STREAM, or with HOP_REGION `<HOP_NATS_STREAM>-<region>`: each region's clicks
   * go to a stream of their own, placed in that region's NATS (issue 25).
   */
  readonly natsStream: string;
  /** HOP_VISIT_LOG, or by default whether the store is the embedded SQLite file. */
  readonly visitLog: boolean;
}

/** The `database` group of ENV_SPEC; its URL is what turns it on, and names the engine. */
export type DatabaseConfig = Omit<DatabaseEnvValues, 'url'> & {
  readonly url: string;
  readonly engine: 'postgres' | 'mariadb';
};

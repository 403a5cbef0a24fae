import { join, resolve } from 'node:path';
import type { Config } from './config.js';
import { ENV_SPEC, type DatabaseEnvValues, type EnvEntry, type EnvValues } from './env-spec.js';
import { databaseEngineOf, ParseError } from './parsers.js';

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
  const values: Record<string, unknown> = {};
  const databaseValues: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const entry of ENV_SPEC as readonly EnvEntry[]) {
    const given = env[entry.name];
    const raw = given === undefined || given === '' ? entry.default : given;
    const into = entry.group === 'database' ? databaseValues : values;
    // Every key is present, unset ones as undefined, so the values keep one shape.
    into[entry.key] = undefined;
    if (raw === undefined) continue;
    try {
      into[entry.key] = entry.parse(raw);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      const shown = entry.secret === true ? '<hidden>' : JSON.stringify(given);
      problems.push(`${entry.name}=${shown} is invalid: expected ${error.message}.`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  // The one place the rows' values meet their derived types (ENV_SPEC's parsers made them).
  const read = values as unknown as EnvValues;
  const database = databaseValues as unknown as DatabaseEnvValues;
  const dataDir = resolve(read.dataDir);
  const config: Config = {
    ...read,
    publicUrl: read.publicUrl ?? `http://localhost:${read.port}`,
    dataDir,
    databaseFile: join(dataDir, 'hop.db'),
    clicksDatabaseFile: join(dataDir, 'clicks.db'),
    database:
      database.url === undefined
        ? undefined
        : { ...database, url: database.url, engine: databaseEngineOf(database.url) },
    // The hash strategy is the seed's "first 6 characters of the digest" unless told otherwise.
    codeLength:
      read.codeStrategy === 'hash' && (env['HOP_CODE_LENGTH'] ?? '') === ''
        ? HASH_CODE_LENGTH
        : read.codeLength,
    poolFile: read.poolFile ?? join(dataDir, 'pool.codes'),
    natsStream: read.region === undefined ? read.natsStream : `${read.natsStream}-${read.region}`,
    trustProxy: read.trustProxy ?? [],
    // ADR 0125: on by default where the store is the embedded file, off on a shared one.
    visitLog: read.visitLog ?? database.url === undefined,
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
  if (config.database === undefined && database.replicaUrl !== undefined) {
    throw new ConfigError([
      'HOP_DATABASE_REPLICA_URL is invalid: expected HOP_DATABASE_URL too (a replica serves redirect reads of a primary).',
    ]);
  }
  if (config.database?.engine === 'mariadb' && database.replicaUrl !== undefined) {
    throw new ConfigError([
      'HOP_DATABASE_REPLICA_URL is invalid: expected a PostgreSQL primary; on MariaDB each region reads its own Galera node (HOP_DATABASE_URL).',
    ]);
  }
  if (config.region !== undefined) problems.push(...regionProblems(config));
  if (problems.length > 0) throw new ConfigError(problems);
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

/**
 * What an instance in one of several regions needs (issue 25, ADR 0141): the shared
 * database every region writes to, its region's Redis (L2, and the invalidations within the
 * region), and NATS, over which the regions tell each other of changes.
 */
function regionProblems(config: Config): string[] {
  const needs: string[] = [];
  if (config.database === undefined)
    needs.push('HOP_DATABASE_URL (the regions share one database)');
  if (config.redisUrl === undefined && config.redisClusterNodes === undefined) {
    needs.push("HOP_REDIS_URL (the region's own cache)");
  }
  if (config.natsServers === undefined)
    needs.push('HOP_NATS_URL (changes reach other regions over NATS)');
  return needs.map((need) => `HOP_REGION is invalid: expected ${need} too.`);
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
  const known = new Set<string>(ENV_SPEC.map((entry) => entry.name));
  return Object.keys(env).filter((name) => name.startsWith('HOP_') && !known.has(name));
}

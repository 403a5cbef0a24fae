import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load-config.js';
import { buildApp } from '../../src/http/build-app.js';
import { composeRuntime, type Runtime } from '../../src/main/compose.js';
import { createLogger } from '../../src/observability/logger.js';
import { ensureBootstrapKey } from '../../src/services/keys/manage-keys.js';
import { ManualClock } from './manual-clock.js';
import { giveBackDatabase, takeDatabase } from './mariadb-databases.js';
import { mariadbUrlOf } from './require-mariadb.js';
import { giveBackSchema, takeSchema } from './pg-schemas.js';
import { POSTGRES_URL } from './require-postgres.js';

export const TEST_ADMIN_KEY = 'hop_test_admin_key_0123456789abcdef';
export const TEST_PUBLIC_URL = 'http://hop.test';

export interface TestServer {
  readonly url: string;
  readonly adminKey: string;
  readonly runtime: Runtime;
  readonly clock: ManualClock;
  readonly dataDir: string;
  readonly app: FastifyInstance;
  /** Sends one request over loopback; `key` defaults to the admin key, null for none. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Issues a non-admin key for `owner` through the API and returns the secret. */
  ownerKey(owner: string): Promise<string>;
  close(): Promise<void>;
}

export interface RequestOptions {
  readonly key?: string | null;
  readonly body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  readonly rawBody?: string | Buffer;
  readonly headers?: Record<string, string>;
  /** Aborts the request (e.g. AbortSignal.timeout), so a hang fails instead of waiting. */
  readonly signal?: AbortSignal;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body when it is JSON (problem+json included), else undefined. */
  readonly json: any;
}

/**
 * Which store the HTTP tests run on: SQLite (the default), the shared PostgreSQL when
 * HOP_TEST_STORE=postgres (test/http/on-postgres.test.ts runs API suites that way), each
 * server on a schema of its own, or the shared MariaDB when HOP_TEST_STORE=mariadb
 * (test/http/on-mariadb.test.ts), each server on a database of its own; `drop` removes it.
 */
function storeEnv(): { env: Record<string, string>; drop: (() => Promise<void>) | null } {
  const kind = process.env['HOP_TEST_STORE'];
  if (kind === 'postgres') {
    const schema = takeSchema();
    return {
      env: { HOP_DATABASE_URL: POSTGRES_URL, HOP_DATABASE_SCHEMA: schema, HOP_STORE_TIMEOUT: '2s' },
      drop: () => giveBackSchema(schema),
    };
  }
  if (kind === 'mariadb') {
    const database = takeDatabase();
    return {
      env: { HOP_DATABASE_URL: mariadbUrlOf(database), HOP_STORE_TIMEOUT: '2s' },
      drop: () => giveBackDatabase(database),
    };
  }
  return { env: {}, drop: null };
}

/**
 * A real hop app on real SQLite in a temp dir (or PostgreSQL: see storeEnv), listening on
 * a free loopback port, with a clock the test moves by hand. Each call makes its own data
 * dir; `close` removes it.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hop-http-'));
  const store = storeEnv();
  const config = loadConfig({
    ...store.env,
    HOP_DATA_DIR: dataDir,
    HOP_HOST: '127.0.0.1',
    HOP_PORT: '0',
    HOP_PUBLIC_URL: TEST_PUBLIC_URL,
    HOP_LOG_LEVEL: 'silent',
    HOP_BOOTSTRAP_ADMIN_KEY: TEST_ADMIN_KEY,
    // The server shares its event loop with the test and the machine with the other test
    // files: lag there is the run's, not the server's. Shedding by lag is proven in
    // test/http/load-shedding.test.ts and test/unit, which set it themselves.
    HOP_SHED_LAG: '1h',
    ...env,
  });
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
  const runtime = await composeRuntime(config, createLogger(config.logLevel), { clock });
  await ensureBootstrapKey(runtime.keyService, config.bootstrapAdminKey);
  const app = await buildApp(runtime.appDeps);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });

  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? TEST_ADMIN_KEY : options.key;
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: body ?? null,
      redirect: 'manual',
      signal: options.signal ?? null,
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };

  return {
    url,
    adminKey: TEST_ADMIN_KEY,
    runtime,
    clock,
    dataDir,
    app,
    request,
    async ownerKey(owner) {
      const response = await request('POST', '/v1/keys', { body: { owner } });
      if (response.status !== 201) throw new Error(`could not issue a key: ${response.text}`);
      return response.json.key as string;
    },
    async close() {
      await app.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
      await store.drop?.();
    },
  };
}

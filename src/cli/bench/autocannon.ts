import { createRequire } from 'node:module';

/**
 * autocannon, typed: it ships no types, so these are the members hop uses (`hop bench`
 * here, and bench/autocannon-driver.ts for `npm run bench`).
 */
export interface AutocannonRequest {
  method?: string;
  path?: string;
  /** Called before every send; autocannon merges the request it returns into the defaults. */
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  pipelining: number;
  /** Seconds a request may go unanswered before it counts as a timeout (default 10). */
  timeout?: number;
  /** Defaults of every request. */
  headers?: Record<string, string>;
  requests: AutocannonRequest[];
}

export interface AutocannonResult {
  /** Socket errors and timeouts (autocannon counts a timeout in both). */
  readonly errors: number;
}

export interface AutocannonInstance {
  /** Every answer: its status and the ms from writing the request to parsing the answer. */
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, responseMs: number) => void,
  ): AutocannonInstance;
  /** Every request that got no answer: a socket error or a timeout. */
  on(event: 'reqError', listener: (error: Error & { code?: string }) => void): AutocannonInstance;
}

export type Autocannon = (
  options: AutocannonOptions,
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

const requireCjs = createRequire(import.meta.url);

export const autocannon = requireCjs('autocannon') as Autocannon;

export function autocannonVersion(): string {
  return (requireCjs('autocannon/package.json') as { version: string }).version;
}

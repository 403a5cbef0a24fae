import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../../domain/webhook-url-policy.js';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../ports/webhook-sender.js';

/** The most of a receiver's answer read (and thrown away) before the socket is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Pools kept at once (one per scheme and judged address set); past it the oldest goes. */
const MAX_POOLS = 64;
/**
 * How long an idle connection to a receiver is kept for the next delivery: under the
 * shortest idle timeout common on servers (Node's own is 5 s), so that hop closes it
 * first, never sends on one the receiver is closing (a spurious failed attempt).
 */
const IDLE_MS = 2_000;

type Addresses = readonly { address: string; family: number }[];

/**
 * Webhook POSTs over node:http(s) (issue 23: safe egress). The host is resolved first and
 * every address judged (any private one refuses the whole host, unless `allowPrivate`);
 * the connection then goes to those addresses only, so a second DNS answer cannot point
 * it elsewhere. Redirects are answers like any other: never followed. Connections are
 * kept alive in a pool per scheme and judged address set, so a reused one also goes only
 * where this delivery's answer allows (a connection per delivery cost a receiver's
 * backlog a TCP handshake each: the integrations bench, BENCHMARKS.md).
 */
export class HttpWebhookSender implements WebhookSender {
  readonly #allowPrivate: boolean;
  readonly #pools = new Map<string, http.Agent>();

  constructor(options: { readonly allowPrivate: boolean }) {
    this.#allowPrivate = options.allowPrivate;
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const signal = AbortSignal.timeout(request.timeoutMs);
    try {
      const url = new URL(request.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const addresses = await this.#resolve(host);
      if (addresses === null) {
        return { kind: 'failed', error: `${host} resolves to a private address: refused.` };
      }
      return await post(url, request, addresses, this.#poolFor(url, addresses), signal);
    } catch (error) {
      return { kind: 'failed', error: describe(error, signal, request.timeoutMs) };
    }
  }

  /** Closes the idle connections kept for later deliveries. */
  close(): void {
    for (const pool of this.#pools.values()) pool.destroy();
    this.#pools.clear();
  }

  #poolFor(url: URL, addresses: Addresses): http.Agent {
    const key = `${url.protocol}${addresses.map((entry) => entry.address).join(',')}`;
    let pool = this.#pools.get(key);
    if (pool === undefined) {
      const options = { keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' as const };
      pool = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      if (this.#pools.size >= MAX_POOLS) {
        const [oldest] = this.#pools;
        if (oldest !== undefined) {
          oldest[1].destroy();
          this.#pools.delete(oldest[0]);
        }
      }
      this.#pools.set(key, pool);
    }
    return pool;
  }

  /** Every address of `host`, or null when one of them may not be reached. */
  async #resolve(host: string): Promise<Addresses | null> {
    const family = isIP(host);
    const addresses =
      family !== 0
        ? [{ address: host, family }]
        : await lookup(host, { all: true, verbatim: true });
    if (addresses.length === 0) throw new Error(`${host} has no address`);
    if (!this.#allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
      return null;
    }
    return addresses;
  }
}

function post(
  url: URL,
  request: WebhookRequest,
  addresses: Addresses,
  agent: http.Agent,
  signal: AbortSignal,
): Promise<WebhookResponse> {
  // Connects only to the addresses judged above (Node asks with `all` for happy eyeballs).
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) {
      (callback as (error: null, list: typeof addresses) => void)(null, addresses);
      return;
    }
    const first = addresses[0];
    if (first === undefined) callback(new Error('no address'), '', 0);
    else callback(null, first.address, first.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        lookup: pinned,
        signal,
        agent,
      },
      (answer) => {
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) answer.destroy();
        });
        const answered = () => {
          resolve({ kind: 'answered', statusCode: answer.statusCode ?? 0 });
        };
        answer.on('close', answered);
        answer.on('error', answered);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

function describe(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `No answer within ${timeoutMs} ms.`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

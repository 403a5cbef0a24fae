import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request a receiver got. */
export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status it was answered with (null: left hanging). */
  readonly answeredWith: number | null;
}

/** How the receiver answers its nth request (0-based): a status, or 'hang' (never answers). */
export type Answer = (index: number) => number | 'hang';

/** A real webhook receiver: a node:http server on loopback that records what it gets. */
export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedWebhook[];
  /** Changes how later requests are answered. */
  answer: Answer;
  /** TCP connections it has accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Starts a receiver on `port` (0: any free one) answering per `answer` (default 200). */
export async function startWebhookReceiver(
  answer: Answer = () => 200,
  port = 0,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const state = { answer };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = state.answer(received.length);
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answeredWith: status === 'hang' ? null : status,
      });
      if (status !== 'hang') response.writeHead(status).end('ok');
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    get connections() {
      return connections;
    },
    get answer() {
      return state.answer;
    },
    set answer(next: Answer) {
      state.answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Verifies a request as the Standard Webhooks specification says a receiver should, from
 * its text: the signed content is `${webhook-id}.${webhook-timestamp}.${body}`; the key is
 * the base64 part of the secret after `whsec_`, decoded; the signature HMAC-SHA256 of it,
 * base64; `webhook-signature` is a space-delimited list of `v1,<signature>`; compare in
 * constant time; refuse a timestamp more than five minutes from now.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    return false;
  }
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.split('_')[1] ?? '', 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

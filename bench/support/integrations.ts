import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the `integrations` scenario hangs on a hop (issue 23): a webhook receiver on
 * loopback, the webhook that points at it, and a live event stream. Each counts what
 * reached it, so the report can say the deliveries and the stream kept up.
 */

/** A webhook receiver: answers every POST 204 and counts the deliveries by type. */
export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: () => number;
  readonly byType: () => Readonly<Record<string, number>>;
  readonly close: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const byType: Record<string, number> = {};
  let deliveries = 0;
  const server: HttpServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries += 1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: unknown };
        const type = typeof body.type === 'string' ? body.type : 'unknown';
        byType[type] = (byType[type] ?? 0) + 1;
      } catch {
        byType['unparsable'] = (byType['unparsable'] ?? 0) + 1;
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries: () => deliveries,
    byType: () => ({ ...byType }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers a webhook for every event type on the hop at `port`, with an admin key. */
export async function registerWebhook(port: number, key: string, url: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url,
      events: ['link.created', 'link.updated', 'link.deleted', 'link.clicked'],
      description: 'bench: integrations',
    }),
  });
  if (response.status !== 201) {
    throw new Error(`POST /v1/webhooks answered ${response.status}: ${await response.text()}`);
  }
}

/** A live `GET /v1/events` subscriber: counts the events it read until closed. */
export interface EventStreamReader {
  readonly events: () => number;
  readonly close: () => void;
}

export async function openEventStream(port: number, key: string): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/v1/events`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`GET /v1/events answered ${response.status}`);
  }
  let events = 0;
  let pending = '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        pending += decoder.decode(value, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('event:')) events += 1;
      }
    } catch {
      // Closed by us, or the hop stopped: the count so far stands.
    }
  })();
  return { events: () => events, close: () => abort.abort() };
}

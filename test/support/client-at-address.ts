import { Agent, request } from 'node:http';

export interface ClientAtAddress {
  /** GET `path`; resolves with the status and the headers that matter here. */
  get(
    path: string,
  ): Promise<{ status: number; retryAfter: string | undefined; location: string | undefined }>;
  close(): void;
}

/**
 * An HTTP client whose sockets leave from `localAddress` (any of 127.0.0.0/8 works on
 * loopback), so one test can be several clients to the server, by real socket address.
 */
export function clientAtAddress(baseUrl: string, localAddress: string): ClientAtAddress {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 16, localAddress });
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path, method: 'GET', agent },
          (res) => {
            res.resume();
            res.on('end', () => {
              const retryAfter = res.headers['retry-after'];
              const location = res.headers.location;
              resolve({ status: res.statusCode ?? 0, retryAfter, location });
            });
          },
        );
        req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path} did not answer`)));
        req.on('error', reject);
        req.end();
      }),
    close: () => {
      agent.destroy();
    },
  };
}

/** Runs `work` over `items`, at most `concurrency` at a time; results in order. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

import { request as httpRequest } from 'node:http';

export interface HostResponse {
  readonly status: number;
  readonly location: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * A request with the `Host` header given (fetch may not set it): how a client of one short
 * domain reaches the server that answers them all (issue 22).
 */
export function requestOnHost(
  baseUrl: string,
  method: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<HostResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { ...headers, host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problems.js';

/** What Node's client errors are answered with: the status line, title and detail. */
const RAW_PROBLEMS: Readonly<Record<string, readonly [string, string, string]>> = {
  HPE_HEADER_OVERFLOW: [
    '431 Request Header Fields Too Large',
    'Request header fields too large',
    'The request headers are too large.',
  ],
  // HOP_HEADERS_TIMEOUT / HOP_REQUEST_TIMEOUT passed: a slow (or slowloris) client.
  ERR_HTTP_REQUEST_TIMEOUT: [
    '408 Request Timeout',
    'Request timeout',
    'The request did not arrive in time.',
  ],
};
const BAD_REQUEST = [
  '400 Bad Request',
  'Malformed request',
  'The request could not be parsed.',
] as const;

/** Node's own client errors: 431 oversized headers, 408 too slow, 400 everything else. */
export function writeRawProblem(socket: Socket, error: Error & { code?: string }): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [statusLine, title, detail] = RAW_PROBLEMS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify({
    ...problemBody('malformed-request', detail, undefined),
    status: Number(statusLine.slice(0, 3)),
    title,
  });
  socket.end(
    `HTTP/1.1 ${statusLine}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

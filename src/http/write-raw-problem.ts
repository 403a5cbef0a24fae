import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problems.js';

/** Node's own parse errors: 431 for oversized headers, 400 for everything else. */
export function writeRawProblem(socket: Socket, error: Error & { code?: string }): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    tooLarge
      ? {
          ...problemBody('malformed-request', 'The request headers are too large.', undefined),
          status: 431,
          title: 'Request header fields too large',
        }
      : problemBody('malformed-request', 'The request could not be parsed.', undefined),
  );
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

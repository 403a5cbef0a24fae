const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/**
 * Minimal HTTP/1.1 response framing for the open-loop driver: status line, headers up to
 * the blank line, then a Content-Length body. Both hop and the ceiling send Content-Length
 * on every response, so chunked bodies are refused rather than parsed.
 */
export class HttpResponseParser {
  /** Bytes of a response not yet complete. */
  private pending: Buffer | null = null;

  /**
   * Feeds bytes off the socket and calls `onResponse` for each response they complete.
   * The chunk may be a read buffer that is reused afterwards: what is kept is copied.
   */
  push(chunk: Buffer, onResponse: (status: number) => void): void {
    const data = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    for (;;) {
      const headerEnd = data.indexOf(HEADER_END, offset);
      if (headerEnd < 0) break;
      const head = data.toString('latin1', offset, headerEnd);
      const end = headerEnd + HEADER_END.length + bodyLength(head);
      if (end > data.length) break;
      offset = end;
      onResponse(statusOf(head));
    }
    this.pending = offset === data.length ? null : Buffer.from(data.subarray(offset));
  }

  /** Forgets a partial response, after its connection was lost. */
  reset(): void {
    this.pending = null;
  }
}

function statusOf(head: string): number {
  const status = Number(head.slice(9, 12));
  if (!head.startsWith('HTTP/1.') || !Number.isInteger(status)) {
    throw new Error(`not an HTTP/1.x response: ${JSON.stringify(head.slice(0, 40))}`);
  }
  return status;
}

function bodyLength(head: string): number {
  const length = CONTENT_LENGTH.exec(head)?.[1];
  if (length !== undefined) return Number(length);
  const status = statusOf(head);
  // These never carry a body (RFC 9110 §6.4.1).
  if (status < 200 || status === 204 || status === 304) return 0;
  throw new Error(`response without Content-Length (chunked is not supported):\n${head}`);
}

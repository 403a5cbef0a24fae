/** One webhook POST as delivery makes it. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole attempt's limit: connect, send, and the answer's status line and body. */
  readonly timeoutMs: number;
}

/** A status code (any, redirects included: none is followed), or why none came. */
export type WebhookResponse =
  | { readonly kind: 'answered'; readonly statusCode: number }
  | { readonly kind: 'failed'; readonly error: string };

/** Sends webhook requests out of hop (issue 23: safe egress). Never rejects. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

import { BenchError } from './bench-error.js';

/** How long one API call or probe may take before the hop counts as not answering. */
const CALL_TIMEOUT_MS = 10_000;

export interface HopCall {
  readonly method?: 'GET' | 'POST';
  /** Sent as `Authorization: Bearer <key>`. */
  readonly key?: string;
  /** Sent as JSON. */
  readonly body?: unknown;
}

/**
 * One request to the hop under test, redirects not followed. An unreachable hop and a
 * refused key (401) are BenchErrors that say what to check; other statuses are returned.
 */
export async function callHop(base: string, path: string, call: HopCall = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (call.key !== undefined) headers['authorization'] = `Bearer ${call.key}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: call.method ?? 'GET',
      headers,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new BenchError(
      `cannot reach ${base} (${describeFetchError(error)}); is \`hop serve\` running there?`,
    );
  }
  if (response.status === 401) {
    throw new BenchError(
      `${base} refused the key (401: ${await problemDetail(response)}); ` +
        'give --key an API key of this hop',
    );
  }
  return response;
}

/** The `detail` (else `title`) of a problem+json answer, else the start of its text. */
export async function problemDetail(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
    const said = problem.detail ?? problem.title;
    if (typeof said === 'string') return said;
  } catch {
    // not JSON: the text itself says what went wrong
  }
  return text.slice(0, 200) || `status ${response.status}`;
}

/** fetch() says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, ...) is its cause. */
function describeFetchError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer within ${CALL_TIMEOUT_MS / 1000} s`;
  }
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

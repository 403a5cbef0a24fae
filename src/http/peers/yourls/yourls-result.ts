/**
 * What a YOURLS action answers, as YOURLS's PHP arrays hold it: keys in the order PHP
 * emits them (issue 24), codes as strings, nested arrays as objects.
 */
export type YourlsValue = string | number | null | YourlsFields;
export interface YourlsFields {
  readonly [key: string]: YourlsValue;
}

export interface YourlsResult {
  readonly fields: YourlsFields;
  /** The body of `format=simple` (YOURLS's `simple` key); absent: an empty body. */
  readonly simple?: string;
  /** Extra response headers (Retry-After, RateLimit); never part of the body. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The HTTP status of a result, as `yourls_api_output` picks it: `statusCode`, else
 * `errorCode`, else 200.
 */
export function statusOf(fields: YourlsFields): number {
  const code = fields['statusCode'] ?? fields['errorCode'];
  const status = typeof code === 'string' || typeof code === 'number' ? Number(code) : 200;
  return Number.isInteger(status) && status >= 200 && status <= 599 ? status : 200;
}

/** The answer YOURLS gives to anything it has no more specific words for. */
export function plainError(status: number, message: string): YourlsResult {
  return { fields: { errorCode: String(status), message }, simple: message };
}

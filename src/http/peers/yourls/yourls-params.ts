/** A request's parameters by name, as PHP's `$_REQUEST` holds them: one string each. */
export type YourlsParams = ReadonlyMap<string, string>;

/**
 * The parameters of a YOURLS call (issue 24): the query, then the form body over it (PHP's
 * `request_order` "GP"). A repeated name keeps its last value, as PHP does; anything
 * that is not a string (a JSON body, which YOURLS never reads) is left out.
 */
export function readYourlsParams(query: unknown, body: unknown): YourlsParams {
  const params = new Map<string, string>();
  for (const source of [query, body]) {
    if (typeof source !== 'object' || source === null || Buffer.isBuffer(source)) continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
      const text = typeof last === 'string' ? last : multipartFieldValue(last);
      if (text !== undefined) params.set(name, text);
    }
  }
  return params;
}

/**
 * A multipart field as @fastify/multipart holds it while its hook still reads the body
 * (`{ type: 'field', value }`): what the error handler sees when a later part is refused.
 */
function multipartFieldValue(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const { type, value } = part as { type?: unknown; value?: unknown };
  return type === 'field' && typeof value === 'string' ? value : undefined;
}

/** PHP's `intval` of a parameter: its leading integer, 0 when there is none or it is absent. */
export function phpIntval(value: string | undefined): number {
  const match = /^\s*([+-]?\d+)/.exec(value ?? '');
  if (match?.[1] === undefined) return 0;
  const parsed = Number.parseInt(match[1], 10);
  return Number.isSafeInteger(parsed) ? parsed : Math.sign(parsed) * Number.MAX_SAFE_INTEGER;
}

/** PHP's `empty()` of a parameter: absent, `''` or `'0'`. */
export function isPhpEmpty(value: string | undefined): value is undefined | '' | '0' {
  return value === undefined || value === '' || value === '0';
}

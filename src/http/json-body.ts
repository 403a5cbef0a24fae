import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';

/**
 * JSON bodies only. An empty body reads as "no body" (a POST to /disable with a JSON
 * content type and nothing in it is fine); `__proto__` and `constructor.prototype` keys
 * are refused rather than parsed (prototype poisoning). Every other media type is 415.
 */
/** The error code of a body that is not JSON; rendered as a 400 malformed-request. */
export const INVALID_JSON = 'HOP_INVALID_JSON';

export function installJsonBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonText(typeof body === 'string' ? body : body.toString()));
    } catch {
      done(
        Object.assign(new Error('The request body is not valid JSON.'), {
          statusCode: 400,
          code: INVALID_JSON,
        }),
        undefined,
      );
    }
  });
}

/**
 * A body's JSON: undefined when it is empty, the value otherwise; throws on bad JSON and on
 * `__proto__` or `constructor.prototype` keys (prototype poisoning). Shared with the peers'
 * APIs, which read bodies whatever their media type says (issue 24).
 */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined;
  return secureJsonParse.parse(text, undefined, {
    protoAction: 'error',
    constructorAction: 'error',
  });
}

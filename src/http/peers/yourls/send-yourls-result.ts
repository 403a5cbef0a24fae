import type { FastifyReply } from 'fastify';
import { phpJsonEncode } from './php-json.js';
import { statusOf, type YourlsFields, type YourlsResult } from './yourls-result.js';
import { toYourlsXml } from './yourls-xml.js';

/** How the caller asked to be answered: `format` and the JSONP callback, as sent. */
export interface YourlsOutput {
  /** `format` as sent; absent is xml, YOURLS's default; anything unknown is simple. */
  readonly format: string | undefined;
  /** `callback`, else `jsonp`: echoed in every format's fields, as YOURLS does. */
  readonly callback: string | undefined;
}

/** A JSONP callback YOURLS accepts (`yourls_validate_jsonp_callback`, 1.10.3). */
function isValidCallback(callback: string): boolean {
  return !/\\?u[0-9a-fA-F]{4}/.test(callback) && /^[a-zA-Z0-9_$.]+$/.test(callback);
}

/**
 * Writes `result` as `yourls_api_output` does: the status from its codes, the body in
 * the asked format with `; charset=utf-8` content types, `callback` added to the fields
 * when one was sent. Answers depend on the key, so no cache keeps them.
 */
export function sendYourlsResult(
  reply: FastifyReply,
  output: YourlsOutput,
  result: YourlsResult,
): FastifyReply {
  const fields: YourlsFields =
    output.callback === undefined ? result.fields : { ...result.fields, callback: output.callback };
  reply
    .code(statusOf(fields))
    .headers(result.headers ?? {})
    .header('cache-control', 'no-store');
  switch (output.format ?? 'xml') {
    case 'jsonp': {
      const callback = output.callback ?? '';
      if (output.callback !== undefined && !isValidCallback(callback)) {
        return reply
          .code(400)
          .type('application/javascript; charset=utf-8')
          .send(phpJsonEncode({ errorCode: '400', error: 'Invalid callback parameter' }));
      }
      return reply
        .type('application/javascript; charset=utf-8')
        .send(`${callback}(${phpJsonEncode(fields)})`);
    }
    case 'json':
      return reply.type('application/json; charset=utf-8').send(phpJsonEncode(fields));
    case 'xml':
      return reply.type('application/xml; charset=utf-8').send(toYourlsXml(fields));
    default:
      return reply.type('text/plain; charset=utf-8').send(result.simple ?? '');
  }
}

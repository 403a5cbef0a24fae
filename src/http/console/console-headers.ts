import type { FastifyReply } from 'fastify';

/**
 * The console's pages load only their own script and style, are never framed, and send
 * no referrer: a link page's URL names a link id, which is nobody else's business.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export function withConsoleHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(CONSOLE_HEADERS);
}

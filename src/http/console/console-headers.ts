import type { FastifyReply } from 'fastify';

/**
 * The console's pages load only their own script and style, are never framed, and send
 * no referrer: a link page's URL names a link id, which is nobody else's business. Every
 * other page hop serves (the miss page, `/`, robots.txt) carries these same headers
 * (ADR 0092, 0093).
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

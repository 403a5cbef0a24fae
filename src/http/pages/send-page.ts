import type { FastifyReply } from 'fastify';
import type { PreparedPage } from './visitor-pages.js';

/** A prepared page through Fastify: its own bytes and headers, nothing made per request. */
export function sendPage(reply: FastifyReply, status: number, page: PreparedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.body);
}

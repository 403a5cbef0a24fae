import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StreamFrames } from '../../../services/events/event-streams.js';
import {
  parseStreamPosition,
  type StreamPosition,
} from '../../../services/events/stream-position.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse } from '../../schemas.js';
import { sendProblem } from '../../send-problem.js';
import { SseResponse } from '../../sse-response.js';

interface EventsQuery {
  last_event_id?: string;
}

const EVENT_TYPES = ['link.created', 'link.updated', 'link.deleted', 'link.clicked'];

const DESCRIPTION = `A Server-Sent Events stream (\`text/event-stream\`) of the caller's link events and clicks: \
its own links for an owner's key, every link for an admin's, only links on its domains for a key limited to domains. \
\`link.clicked\` (the clicks of one link within one second) needs \`analytics:read\` besides; without it the stream carries link events only. \
Each event is \`id: <position>\`, \`event: <type>\` (${EVENT_TYPES.join(', ')}) and one line \`data: {"type","timestamp","data"}\`, \
the body of a webhook delivery: \`data\` is the link as the change left it (\`clicks\` and \`bot_clicks\` 0: clicks come as \`link.clicked\`), \
or \`{"link_id","second","clicks":{"count","bot_count","countries","devices","browsers","os","referrers","languages"}}\`. \
A client that reconnects with \`Last-Event-ID\` (or \`?last_event_id=\`) gets what it missed, then the live events, nothing twice; \
the logs keep 24 hours, so that is the window (\`~\` replays all of it). A comment line comes every HOP_EVENT_HEARTBEAT (15 s). \
A key holds at most HOP_EVENT_STREAMS_PER_KEY (5) streams at once per instance; a client that stops reading is dropped.`;

/** Bytes a client may leave unread before it is dropped: a few hundred events. */
export const STREAM_UNSENT_BYTES = 1024 * 1024;

/** `GET /v1/events` (issue 23, ADR 0129). */
export function registerEventRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: EventsQuery }>(
    '/v1/events',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: "A live stream of the caller's link events and clicks (Server-Sent Events)",
        description: DESCRIPTION,
        tags: ['events'],
        security: [{ apiKey: [] }],
        querystring: {
          type: 'object',
          properties: {
            last_event_id: {
              type: 'string',
              description:
                'Where to resume: an event id, as the `Last-Event-ID` header (which wins) would name it.',
            },
          },
        },
        headers: {
          type: 'object',
          properties: {
            'last-event-id': {
              type: 'string',
              description:
                'The id of the last event received: what EventSource sends on reconnect.',
            },
          },
        },
        response: {
          200: {
            description:
              'The stream: it stays open until the client or the server ends it (on shutdown, or when the client stops reading).',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          400: problemResponse,
          401: problemResponse,
          403: problemResponse,
          429: problemResponse,
          503: problemResponse,
        },
      },
    },
    async (request, reply) => {
      // Node joins a repeated header with ", ", which is no event id.
      const header = request.headers['last-event-id'];
      const given = header === undefined ? request.query.last_event_id : String(header);
      const from = given === undefined ? null : parseStreamPosition(given);
      if (given !== undefined && from === null) {
        return sendProblem(
          request,
          reply,
          'malformed-request',
          'Last-Event-ID is not an id this stream sent: resume from an event id as it came, or leave it out.',
          { fields: [{ field: 'Last-Event-ID', detail: 'not an event id' }] },
        );
      }
      await streamEvents(deps, request, reply, from);
      return reply;
    },
  );
}

/** Opens the stream: registered with the hub first (a 429 or 503 is still a problem). */
async function streamEvents(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  from: StreamPosition | null,
): Promise<void> {
  const sse = new SseResponse(reply.raw, {
    maxUnsentBytes: STREAM_UNSENT_BYTES,
    heartbeatMs: deps.events.heartbeatMs,
  });
  const frames: StreamFrames = {
    send: (text) => sse.send(text),
    ready: () => sse.ready(),
    end: (reason) => {
      sse.end({ abort: reason === 'too-slow' });
    },
  };
  const subscription = await deps.events.streams.open(principalOf(request), from, frames);
  reply.hijack();
  if (reply.raw.destroyed) {
    subscription.close();
    return;
  }
  // A stream is not a request in flight for load shedding (SPEC §7): it gives its slot
  // back while open (build-app's handler takes it back on close).
  const { shedder } = deps.protection;
  shedder.leave();
  reply.raw.once('close', () => {
    shedder.enter();
    subscription.close();
    sse.end({ abort: false });
  });
  sse.open(headersOf(reply));
  subscription.start();
}

/** The headers hooks set on the reply (request id, security headers): hijacked, sent by hand. */
function headersOf(reply: FastifyReply): Record<string, string | number | readonly string[]> {
  const headers: Record<string, string | number | readonly string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isReservedAlias } from '../../domain/alias-rules.js';
import { CODE_PATTERN } from '../../domain/code-format.js';
import { sendPage } from '../pages/send-page.js';
import { MAX_FORM_BYTES } from '../read-password-form.js';
import { missAnswer, type RedirectFront } from '../redirect-front.js';
import { problemResponse } from '../schemas.js';

const codeParams = {
  type: 'object',
  properties: { code: { type: 'string', pattern: CODE_PATTERN } },
} as const;

/** Issue 21: a pass for one password link, so its visitor is asked once. */
const passCookie = {
  'set-cookie': {
    type: 'string',
    description:
      'On a password link given the right password: hop_pass_<link id>, a signed pass for this link (Path=/{code}; HttpOnly; SameSite=Lax; Secure over HTTPS), so the visitor is not asked again.',
  },
} as const;

/** Issue 22: search engines are told off every link that is not crawlable. */
const robotsTag = {
  'x-robots-tag': {
    type: 'string',
    description: 'noindex, unless the link is crawlable (ADR 0121).',
  },
} as const;

const redirect = (description: string) => ({
  type: 'null',
  description,
  headers: { ...passCookie, ...robotsTag },
});

const passwordForm = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

const notFound = {
  ...problemResponse,
  description:
    'Unknown, disabled, expired or deleted (with no fallback_url): problem+json, or one HTML page to a client whose Accept prefers text/html.',
} as const;

/**
 * GET and HEAD /{code} as Fastify's router sees them. The node:http front answers
 * `/{code}` before Fastify; what reaches this route is what it handed on, the reserved
 * words in spellings that are no route of ours (/Healthz, /v1, /favicon.ico), and targets
 * only the router reads as /{code} (absolute-form, `http://host/{code}`: RFC 9112 §3.2.2).
 * All of them go back to the front, so that every redirect counts its click and its
 * metrics; it leaves only the reserved words, which no link holds, to this route: the one
 * 404 (SPEC §3), or the one miss page to a browser (ADR 0092). The route also documents the redirect in /openapi.json.
 */
export function registerRedirectRoute(app: FastifyInstance, front: RedirectFront): void {
  app.get<{ Params: { code: string } }>(
    '/:code',
    {
      schema: {
        summary: 'Follow a short link',
        description:
          "A smart link (issue 21) may send a visitor elsewhere by its rules or variants, add the visitor's query string, or send an expired or used-up link to its fallback_url (302, never cached). A password link answers a visitor without a pass with the password form (200, HTML); the password may instead be sent in the X-Link-Password header, or the form posted to POST /{code}.",
        tags: ['redirect'],
        params: codeParams,
        headers: {
          type: 'object',
          properties: {
            'x-link-password': {
              type: 'string',
              description:
                "A password link's password (issue 21): right, the redirect and a pass cookie; wrong, 401. Percent-encode characters outside ASCII.",
            },
          },
        },
        response: {
          200: {
            description:
              "A password link without a pass or an X-Link-Password header: the HTML password form, which posts to POST /{code}. A GET from a link-preview or social crawler (Slack, X, Facebook, LinkedIn, WhatsApp, Telegram, Discord, iMessage, Googlebot, bingbot, by User-Agent) of a link without a password: the link's card, a small HTML page of og: and twitter: tags from its preview (or its title) with a link onward, counted as a bot visit (ADR 0121).",
            content: { 'text/html': { schema: { type: 'string' } } },
            headers: robotsTag,
          },
          301: redirect('Permanent redirect to the destination.'),
          302: redirect(
            'Temporary redirect (the default); also the redirect to a fallback_url, then with Cache-Control: no-store.',
          ),
          307: redirect('Temporary, method-preserving redirect.'),
          308: redirect('Permanent, method-preserving redirect.'),
          401: {
            ...problemResponse,
            description: 'wrong-password: the X-Link-Password header is not the link’s password.',
          },
          404: notFound,
          429: {
            ...problemResponse,
            description:
              'Too many wrong passwords for this link from this client (Retry-After says when to try again), or a client throttled for asking for many unknown codes.',
          },
        },
      },
      // The pattern is documentation: the service checks the format itself, without ajv.
      validatorCompiler: () => () => true,
    },
    (request, reply) => {
      copyFastifyHeaders(reply);
      if (front.answer(request.raw, reply.raw, request.params.code)) {
        reply.hijack();
        return;
      }
      return sendPage(reply, 404, missAnswer(request.raw.rawHeaders));
    },
  );
  registerPreviewPageRoute(app, front);
  void app.register((scope, _options, done) => {
    registerPasswordFormRoute(scope, front);
    done();
  });
}

/**
 * GET and HEAD /{code}+ (issue 22, ADR 0122): answered by the front like a redirect; what
 * reaches this route (an absolute-form target, a reserved word with a `+`) goes back to it.
 * The route documents the page in /openapi.json.
 */
function registerPreviewPageRoute(app: FastifyInstance, front: RedirectFront): void {
  app.get<{ Params: { code: string } }>(
    '/:code(^[A-Za-z0-9._~-]+)+',
    {
      schema: {
        summary: "A short link's public preview page",
        description:
          "Where the link goes, its title, its QR code and a Continue button to /{code}; a password link's page shows neither destination nor title. Never counted as a click.",
        tags: ['redirect'],
        params: codeParams,
        response: {
          200: {
            description: 'The preview page (HTML; X-Robots-Tag: noindex).',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          404: notFound,
          429: {
            ...problemResponse,
            description: 'A client throttled for asking for many unknown codes.',
          },
          503: problemResponse,
        },
      },
      validatorCompiler: () => () => true,
    },
    (request, reply) => {
      copyFastifyHeaders(reply);
      if (front.answer(request.raw, reply.raw, `${request.params.code}+`)) {
        reply.hijack();
        return;
      }
      return sendPage(reply, 404, missAnswer(request.raw.rawHeaders));
    },
  );
}

/** The password form's fields, as this route's own body parser reads them. */
class PasswordFormBody {
  constructor(readonly password: string | null) {}
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * POST /{code}: a password link's form (issue 21). The front answers it before Fastify,
 * like the GET (ADR 0019); a POST that reaches this route is for a reserved word (the one
 * 404) or an absolute-form target, which goes back to the front. The route is here to
 * document the form, and its form parser is scoped to it (`scope` is encapsulated): every
 * other route still refuses a form body with 415.
 */
function registerPasswordFormRoute(scope: FastifyInstance, front: RedirectFront): void {
  scope.addContentTypeParser(
    FORM_TYPE,
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      done(null, new PasswordFormBody(new URLSearchParams(text).get('password')));
    },
  );
  scope.post<{ Params: { code: string } }>(
    '/:code',
    {
      schema: {
        summary: "Send a password link's password form",
        description:
          'What the password form of GET /{code} posts (issue 21). Right, the redirect with a pass cookie; wrong or missing, the form again (401) saying so. A link without a password, or no link, is the one 404.',
        tags: ['redirect'],
        params: codeParams,
        consumes: [FORM_TYPE],
        body: {
          type: 'object',
          properties: { password: { type: 'string', description: "The link's password." } },
        },
        response: {
          302: redirect("The password is right: the redirect (or the link's own status code)."),
          401: passwordForm(
            'The password is wrong, or the form has none: the form again, saying so.',
          ),
          404: notFound,
          413: { ...problemResponse, description: `A body over ${MAX_FORM_BYTES} bytes.` },
          415: { ...problemResponse, description: `A body that is not ${FORM_TYPE}.` },
          429: passwordForm(
            'Too many wrong passwords for this link from this client: a page saying when to try again (Retry-After).',
          ),
        },
      },
      validatorCompiler: () => () => true,
    },
    (request, reply) => answerPostedForm(front, request, reply),
  );
}

function answerPostedForm(
  front: RedirectFront,
  request: FastifyRequest<{ Params: { code: string } }>,
  reply: FastifyReply,
) {
  copyFastifyHeaders(reply);
  const { code } = request.params;
  if (!isReservedAlias(code) && request.body instanceof PasswordFormBody) {
    front.answerPasswordForm(request.raw, reply.raw, code, request.body.password);
    reply.hijack();
    return;
  }
  return sendPage(reply, 404, missAnswer(request.raw.rawHeaders));
}

/** The headers every Fastify answer carries (build-app.ts) go out with the front's too. */
function copyFastifyHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

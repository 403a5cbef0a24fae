/**
 * JSON schemas of `/v1/domains` (issue 22). Shapes and types only: host names and the
 * redirects' URL policy are the domain's rules, which name the field they refuse.
 */
const redirectUrl = (description: string) => ({
  type: ['string', 'null'],
  maxLength: 8192,
  description: `${description} Absolute http(s) URL, under the links' destination rules; null: none.`,
});

const redirects = {
  root_redirect: redirectUrl('Where `GET /` on the domain goes (302).'),
  not_found_redirect: redirectUrl(
    'Where an unknown, disabled, expired or deleted code on the domain goes (302) instead of the 404.',
  ),
};

export const createDomainBody = {
  type: 'object',
  required: ['host'],
  additionalProperties: false,
  properties: {
    host: {
      type: 'string',
      maxLength: 253,
      description: 'A host name such as go.acme.com: no scheme, port or path.',
    },
    ...redirects,
    https: { type: 'boolean', description: 'Short URLs on the domain are https://; default true.' },
  },
} as const;

export const updateDomainBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...redirects,
    https: {
      type: 'boolean',
      description: "Short URLs are https://. The default domain's scheme is HOP_PUBLIC_URL's.",
    },
  },
} as const;

export const domainHostParams = {
  type: 'object',
  required: ['host'],
  properties: {
    host: {
      type: 'string',
      description: 'The domain; the host of HOP_PUBLIC_URL names the default domain.',
    },
  },
} as const;

export const domainJson = {
  type: 'object',
  required: [
    'host',
    'default',
    'root_redirect',
    'not_found_redirect',
    'https',
    'created_at',
    'updated_at',
  ],
  properties: {
    host: { type: 'string' },
    default: {
      type: 'boolean',
      description: 'The domain of HOP_PUBLIC_URL: always there, listed first, never deleted.',
    },
    root_redirect: {
      type: ['string', 'null'],
      description: "The default domain's falls back to HOP_ROOT_REDIRECT while unset.",
    },
    not_found_redirect: { type: ['string', 'null'] },
    https: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

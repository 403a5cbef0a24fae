import { MAX_ALIAS_LENGTH, MIN_ALIAS_LENGTH } from '../domain/code-format.js';
import { LINK_STATES, REDIRECT_STATUSES } from '../domain/link.js';
import { SCOPES } from '../domain/principal.js';
import { MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from '../domain/link-fields.js';
import { PREVIEW_LIMITS } from '../domain/link-preview.js';
import { TAGS_MODES } from '../domain/link-tags.js';
import {
  BROWSERS,
  DEVICES,
  MAX_PASSWORD_LENGTH,
  MAX_RULES,
  MAX_VARIANT_WEIGHT,
  MAX_VARIANTS,
  MIN_PASSWORD_LENGTH,
  MIN_VARIANT_WEIGHT,
  MIN_VARIANTS,
  OPERATING_SYSTEMS,
} from '../domain/smart/smart-options.js';
import { LINK_SORT_NAMES } from '../services/links/list-links.js';

/**
 * JSON schemas of the v1 API. They check shapes and types (and feed /openapi.json); the
 * rules about values (URL policy, alias rules, expiry) live in the domain, which gives the
 * specific error kinds SPEC asks for.
 */
const nullable = (schema: Record<string, unknown>) => ({
  ...schema,
  type: [schema['type'] as string, 'null'],
});

const tags = {
  type: 'array',
  maxItems: MAX_TAGS,
  items: { type: 'string', maxLength: MAX_TAG_LENGTH },
  description: `Up to ${MAX_TAGS} labels of letters, digits and "_.:-".`,
};

const destinationUrl = { type: 'string', maxLength: 8192, description: 'Absolute http(s) URL.' };

/** A rule's `when`: every condition given must hold; a list holds when any value matches. */
const ruleWhen = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    device: { type: 'array', minItems: 1, items: { type: 'string', enum: [...DEVICES] } },
    os: { type: 'array', minItems: 1, items: { type: 'string', enum: [...OPERATING_SYSTEMS] } },
    browser: { type: 'array', minItems: 1, items: { type: 'string', enum: [...BROWSERS] } },
    language: {
      type: 'array',
      minItems: 1,
      items: { type: 'string' },
      description:
        'Language tags matched against Accept-Language: "de" matches "de-AT"; q=0 never matches.',
    },
    country: {
      type: 'array',
      minItems: 1,
      items: { type: 'string' },
      description: 'ISO 3166-1 alpha-2 codes.',
    },
    query: {
      type: 'object',
      minProperties: 1,
      additionalProperties: { anyOf: [{ type: 'string' }, { const: true }] },
      description: 'Parameter → the value it must have, or true for present with any value.',
    },
    ip: {
      type: 'array',
      minItems: 1,
      items: { type: 'string' },
      description: 'IPv4 or IPv6 addresses or CIDRs.',
    },
    after: { type: 'string', description: 'RFC 3339: the rule holds from this instant on.' },
    before: { type: 'string', description: 'RFC 3339: the rule holds before this instant.' },
  },
};

const rules = {
  type: 'array',
  maxItems: MAX_RULES,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['destination', 'when'],
    properties: {
      destination: destinationUrl,
      status_code: {
        type: 'integer',
        enum: [...REDIRECT_STATUSES],
        description: "Default: the link's status code.",
      },
      when: ruleWhen,
    },
  },
  description: `Up to ${MAX_RULES} redirect rules, tried in order; the first whose conditions all hold wins.`,
};

const variants = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['destination', 'weight'],
    properties: {
      destination: destinationUrl,
      weight: { type: 'integer', minimum: MIN_VARIANT_WEIGHT, maximum: MAX_VARIANT_WEIGHT },
    },
  },
  description: `None, or ${MIN_VARIANTS}–${MAX_VARIANTS} destinations drawn by weight when no rule matches; a visitor keeps the one first drawn (a cookie).`,
};

const utmValue = nullable({ type: 'string' });
const utm = nullable({
  type: 'object',
  additionalProperties: false,
  properties: {
    source: utmValue,
    medium: utmValue,
    campaign: utmValue,
    term: utmValue,
    content: utmValue,
  },
  description:
    "Sets the destination's utm_* parameters when the link is written (null removes one; utm: null removes all).",
});

/** The smart-link fields of a create or a PATCH (issue 21); null removes one in a PATCH. */
const smartFields = {
  rules: nullable({ ...rules, description: `${rules.description} null or [] removes them.` }),
  variants: nullable({
    ...variants,
    description: `${variants.description} null or [] removes them.`,
  }),
  password: nullable({
    type: 'string',
    description: `${MIN_PASSWORD_LENGTH}–${MAX_PASSWORD_LENGTH} characters; write-only (null removes it).`,
  }),
  max_clicks: nullable({
    type: 'integer',
    minimum: 1,
    description: 'At most this many redirects are ever served; then the link answers as expired.',
  }),
  fallback_url: nullable({
    ...destinationUrl,
    description:
      'Where an expired or click-exhausted link sends visitors (302) instead of the 404.',
  }),
  forward_query: {
    type: ['boolean', 'null'],
    description:
      "Adds the visitor's query string to the chosen destination (its own parameters win).",
  },
  utm,
};

/**
 * What a shared link's card shows (issue 22, ADR 0121). Types only here: the domain's
 * parser (parse-preview-input.ts) checks lengths and the image's URL, naming each field.
 */
const preview = nullable({
  type: 'object',
  additionalProperties: false,
  properties: {
    title: nullable({
      type: 'string',
      description: `Up to ${PREVIEW_LIMITS.title} characters; without it the card shows the link's title.`,
    }),
    description: nullable({
      type: 'string',
      description: `Up to ${PREVIEW_LIMITS.description} characters.`,
    }),
    image: nullable({
      type: 'string',
      description: `Absolute http(s) URL of the card's image (up to ${PREVIEW_LIMITS.image} characters), under the destination rules.`,
    }),
  },
  description:
    'The card link-preview and social crawlers show for the link (og: and twitter: tags). null removes it; a preview replaces the whole preview (fields left out are null).',
});

const crawlable = {
  type: 'boolean',
  description:
    'Search engines may index the link: its redirects carry no X-Robots-Tag: noindex and robots.txt allows its path. Default false.',
};

export const createLinkBody = {
  type: 'object',
  required: ['destination'],
  additionalProperties: false,
  properties: {
    destination: { type: 'string', description: 'Absolute http(s) URL.' },
    alias: nullable({
      type: 'string',
      description: `Custom code: [A-Za-z0-9_-], ${MIN_ALIAS_LENGTH}-${MAX_ALIAS_LENGTH} characters.`,
    }),
    status_code: nullable({
      type: 'integer',
      description: `One of ${REDIRECT_STATUSES.join(', ')}; default 302.`,
    }),
    expires_at: nullable({ type: 'string', description: 'RFC 3339 timestamp in the future.' }),
    ttl_seconds: nullable({ type: 'integer', minimum: 1 }),
    title: nullable({ type: 'string', maxLength: MAX_TITLE_LENGTH }),
    tags,
    preview,
    crawlable,
    domain: nullable({
      type: 'string',
      maxLength: 253,
      description: 'Host of a short domain (GET /v1/domains); default the default domain.',
    }),
    ...smartFields,
  },
} as const;

export const updateLinkBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    destination: { type: 'string' },
    status_code: { type: 'integer', description: `One of ${REDIRECT_STATUSES.join(', ')}.` },
    expires_at: nullable({ type: 'string', description: 'RFC 3339, or null for never.' }),
    title: nullable({ type: 'string', maxLength: MAX_TITLE_LENGTH }),
    tags,
    preview,
    crawlable,
    ...smartFields,
  },
} as const;

export const linkJson = {
  type: 'object',
  required: [
    'id',
    'code',
    'short_url',
    'destination',
    'status_code',
    'state',
    'custom',
    'owner',
    'title',
    'tags',
    'created_at',
    'updated_at',
    'expires_at',
    'version',
    'clicks',
    'bot_clicks',
    'rules',
    'variants',
    'password_protected',
    'max_clicks',
    'fallback_url',
    'forward_query',
    'utm',
    'preview',
    'crawlable',
  ],
  properties: {
    id: { type: 'string', description: 'ULID.' },
    domain: { type: 'string', description: 'Host of the short domain (issue 22).' },
    code: { type: 'string' },
    short_url: { type: 'string' },
    destination: { type: 'string' },
    status_code: { type: 'integer', enum: [...REDIRECT_STATUSES] },
    state: { type: 'string', enum: [...LINK_STATES] },
    custom: { type: 'boolean' },
    owner: { type: 'string' },
    title: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
    version: { type: 'integer' },
    clicks: {
      type: 'integer',
      description: "Clicks counted so far (seconds behind); bots' are not among them.",
    },
    bot_clicks: {
      type: 'integer',
      description: 'Clicks of crawlers and link unfurlers, counted apart from clicks.',
    },
    rules,
    variants,
    password_protected: {
      type: 'boolean',
      description: 'True when visitors must give a password; the password itself is never shown.',
    },
    max_clicks: { type: ['integer', 'null'] },
    fallback_url: { type: ['string', 'null'] },
    forward_query: { type: 'boolean' },
    utm: {
      type: 'object',
      properties: {
        source: { type: 'string' },
        medium: { type: 'string' },
        campaign: { type: 'string' },
        term: { type: 'string' },
        content: { type: 'string' },
      },
      description: "The destination's utm_* parameters, parsed back from it.",
    },
    preview: {
      type: ['object', 'null'],
      required: ['title', 'description', 'image'],
      properties: {
        title: { type: ['string', 'null'] },
        description: { type: ['string', 'null'] },
        image: { type: ['string', 'null'] },
      },
      description: "The card crawlers show (ADR 0121); null: the link's title.",
    },
    crawlable: {
      type: 'boolean',
      description: 'Search engines may index the link (ADR 0121).',
    },
  },
} as const;

/** A tag query parameter: once, or repeated (`tag=a&tag=b`) up to a link's tag count. */
export function repeatableTag(description: string) {
  const tag = { type: 'string', maxLength: MAX_TAG_LENGTH };
  return { anyOf: [tag, { type: 'array', maxItems: MAX_TAGS, items: tag }], description };
}

export const listLinksQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 200, description: 'Substring of code, destination or title.' },
    state: { type: 'string', enum: [...LINK_STATES] },
    tag: repeatableTag('Only links with this tag; repeat for several (see tags_mode).'),
    tags_mode: {
      type: 'string',
      enum: [...TAGS_MODES],
      description: 'any (default): links with any of the tags; all: links with every one.',
    },
    exclude_tag: repeatableTag('Only links without this tag; repeatable.'),
    domain: { type: 'string', maxLength: 253, description: 'Only links on this short domain.' },
    owner: { type: 'string', maxLength: 128, description: 'Admin only: one owner.' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    cursor: { type: 'string', maxLength: 200 },
    sort: {
      type: 'string',
      enum: [...LINK_SORT_NAMES],
      description:
        'Order: created, clicks or expires_at; a leading "-" for descending (ADR 0097). Default -created, newest first.',
    },
  },
} as const;

/** `GET /v1/links/{id}/qr`: SVG by default; a size bounded so nobody asks for a poster. */
export const qrQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    format: { type: 'string', enum: ['svg', 'png'], description: 'Default svg.' },
    size: {
      type: 'integer',
      minimum: 64,
      maximum: 2048,
      description: 'Width and height in pixels; default 256.',
    },
  },
} as const;

/** `?domain=`: which short domain a link named by its code is on (issue 22). */
export const linkDomainQuery = {
  type: 'string',
  maxLength: 253,
  description: 'The short domain of a link named by its code; default the default.',
} as const;

export const linkIdParams = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      description:
        "The link's id (a ULID) or its code or alias; an id is looked up first (ADR 0101).",
    },
  },
} as const;

export const problemJson = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    request_id: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, detail: { type: 'string' } },
      },
    },
  },
} as const;

/**
 * A problem response as the OpenAPI document declares it, under RFC 9457's own media type
 * (what `sendProblem` sends). The body is sent already serialized, so this is documentation.
 */
export const problemResponse = {
  description: 'RFC 9457 problem details.',
  content: { 'application/problem+json': { schema: problemJson } },
} as const;

export const createKeyBody = {
  type: 'object',
  required: ['owner'],
  additionalProperties: false,
  properties: {
    owner: { type: 'string', maxLength: 128 },
    admin: { type: 'boolean', default: false, description: 'Only an admin key issues one.' },
    name: { type: 'string', maxLength: 100, description: 'What people call the key.' },
    scopes: {
      type: 'array',
      maxItems: SCOPES.length,
      items: { type: 'string', enum: [...SCOPES] },
      description:
        'What the key may do; left out: links:read, links:write and analytics:read (those the issuing key holds). Not for admin keys: they hold every scope.',
    },
    domains: {
      type: 'array',
      maxItems: 100,
      items: { type: 'string', maxLength: 253 },
      description:
        "Hosts of the only domains the key may create on or see (the host of the public URL is the default domain); left out: every domain (the issuing key's).",
    },
    expires_at: {
      type: 'string',
      maxLength: 64,
      description: 'RFC 3339, in the future: from then on the key is refused (401).',
    },
  },
} as const;

const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;

const keyProperties = {
  id: { type: 'string' },
  owner: { type: 'string' },
  admin: { type: 'boolean' },
  name: { type: ['string', 'null'] },
  prefix: { type: 'string', description: 'The first characters of the key.' },
  scopes: {
    type: 'array',
    items: { type: 'string', enum: [...SCOPES] },
    description: "What the key may do: an admin key's every scope.",
  },
  domains: {
    type: ['array', 'null'],
    items: { type: 'string' },
    description: 'The only domains the key may use; null: every domain.',
  },
  expires_at: nullableTime,
  last_used_at: { ...nullableTime, description: 'Within a minute; null: not used since issue.' },
  created_at: { type: 'string', format: 'date-time' },
  revoked_at: nullableTime,
} as const;

const KEY_FIELDS = [
  'id',
  'owner',
  'admin',
  'name',
  'prefix',
  'scopes',
  'domains',
  'expires_at',
  'last_used_at',
  'created_at',
  'revoked_at',
] as const;

export const keyJson = {
  type: 'object',
  required: [...KEY_FIELDS],
  properties: keyProperties,
} as const;

/** A key as issued: its JSON and, this once, its secret. */
export const issuedKeyJson = {
  type: 'object',
  required: ['key', ...KEY_FIELDS],
  properties: {
    key: { type: 'string', description: 'The secret, shown only this once.' },
    ...keyProperties,
  },
} as const;

/** Error responses documented on every authenticated route. */
export const authErrors = {
  401: problemResponse,
  404: problemResponse,
} as const;

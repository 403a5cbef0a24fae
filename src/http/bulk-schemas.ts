import { MAX_TAG_LENGTH, MAX_TAGS } from '../domain/link-fields.js';
import { MAX_BULK_ITEMS } from '../services/links/bulk/create-links.js';
import { linkJson, problemJson } from './schemas.js';

/**
 * Schemas of the bulk link routes (issue 22, ADR 0120). A create item is checked on its own
 * against POST /v1/links's body (a bad item is that item's 422), so here it is any object.
 */
const tagList = (what: string) => ({
  type: 'array',
  maxItems: MAX_TAGS,
  items: { type: 'string', maxLength: MAX_TAG_LENGTH },
  description: what,
});

const ids = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_BULK_ITEMS,
  items: { type: 'string', minLength: 1, maxLength: 200 },
  description: `1 to ${MAX_BULK_ITEMS} link ids (or codes, ADR 0101); each gets its own result.`,
} as const;

export const bulkCreateBody = {
  type: 'object',
  required: ['links'],
  additionalProperties: false,
  properties: {
    links: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BULK_ITEMS,
      // Any JSON: an item that is not a create body (not even an object) is its own 422.
      items: { description: 'A body of POST /v1/links; one that is not valid is its own 422.' },
    },
  },
} as const;

export const bulkPatchBody = {
  type: 'object',
  required: ['ids', 'patch'],
  additionalProperties: false,
  properties: {
    ids,
    patch: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        destination: { type: 'string' },
        expires_at: { type: ['string', 'null'], description: 'RFC 3339, or null for never.' },
        tags: tagList('Replaces the tags.'),
        add_tags: tagList('Added to the tags (after `tags`).'),
        remove_tags: tagList('Taken from the tags (after `add_tags`).'),
        state: { type: 'string', enum: ['active', 'disabled'] },
      },
    },
  },
} as const;

export const bulkDeleteBody = {
  type: 'object',
  required: ['ids'],
  additionalProperties: false,
  properties: { ids },
} as const;

const result = (key: 'index' | 'id') => ({
  type: 'object',
  required: [key, 'status'],
  properties: {
    [key]:
      key === 'index'
        ? { type: 'integer', description: "The item's place in `links`, from 0." }
        : { type: 'string' },
    status: { type: 'integer', description: 'The status a single call would have answered.' },
    link: linkJson,
    problem: problemJson,
  },
});

const resultsOf = (key: 'index' | 'id', description: string) => ({
  description,
  type: 'object',
  required: ['results'],
  properties: { results: { type: 'array', items: result(key) } },
});

export const bulkCreateAnswer = resultsOf(
  'index',
  'One result per item, in order: 201 with the link, or its problem.',
);
export const bulkPatchAnswer = resultsOf(
  'id',
  'One result per id, in order: 200 with the link, or its problem.',
);
export const bulkDeleteAnswer = resultsOf(
  'id',
  'One result per id, in order: 204, or its problem.',
);

import { MAX_TAG_LENGTH } from '../domain/link-fields.js';
import { MAX_TAG_PAGE_SIZE, DEFAULT_TAG_PAGE_SIZE } from '../services/tags/list-tags.js';

/** JSON schemas of the tag routes (issue 22); shapes only, the rules are the domain's. */
export const listTagsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    search: {
      type: 'string',
      maxLength: MAX_TAG_LENGTH,
      description: 'Case-insensitive substring of the name.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_TAG_PAGE_SIZE,
      default: DEFAULT_TAG_PAGE_SIZE,
    },
    cursor: { type: 'string', maxLength: 200 },
  },
} as const;

const tagCount = {
  type: 'object',
  required: ['name', 'links', 'clicks'],
  properties: {
    name: { type: 'string' },
    links: { type: 'integer', description: 'Links carrying it (deleted ones not counted).' },
    clicks: { type: 'integer', description: "The sum of those links' clicks." },
  },
} as const;

export const tagPageJson = {
  type: 'object',
  required: ['tags', 'next_cursor'],
  properties: {
    tags: { type: 'array', items: tagCount },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

export const tagNameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', description: 'The tag, as links carry it.' } },
} as const;

export const renameTagBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      maxLength: MAX_TAG_LENGTH,
      description: 'The new name; links that already carry it keep it once (a merge).',
    },
  },
} as const;

export const renamedTagJson = {
  type: 'object',
  required: ['name', 'links'],
  properties: {
    name: { type: 'string' },
    links: { type: 'integer', description: 'Links carrying the new name now.' },
  },
} as const;

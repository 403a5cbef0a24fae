import type { FastifyInstance } from 'fastify';
import { deleteTag } from '../../../services/tags/delete-tag.js';
import { listTags } from '../../../services/tags/list-tags.js';
import { renameTag } from '../../../services/tags/rename-tag.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { problemResponse } from '../../schemas.js';
import {
  listTagsQuery,
  renamedTagJson,
  renameTagBody,
  tagNameParams,
  tagPageJson,
} from '../../tag-schemas.js';

interface NameParams {
  name: string;
}

const security = [{ apiKey: [] }];
const errors = { 401: problemResponse, 403: problemResponse, 422: problemResponse } as const;

/** Issue 22's tag routes (ADR 0119). Handlers only translate between HTTP and the services. */
export function registerTagRoutes(app: FastifyInstance, deps: AppDeps): void {
  const services = deps.tagService;

  app.get<{ Querystring: { search?: string; limit?: number; cursor?: string } }>(
    '/v1/tags',
    {
      config: { scope: 'links:read' },
      schema: {
        summary: 'List the tags of the links the key can see, by name, with links and clicks',
        tags: ['tags'],
        security,
        querystring: listTagsQuery,
        response: { 200: tagPageJson, ...errors },
      },
    },
    async (request) => {
      const { search, limit, cursor } = request.query;
      const page = await listTags(services, principalOf(request), { search, limit, cursor });
      return { tags: page.tags, next_cursor: page.nextCursor };
    },
  );

  app.patch<{ Params: NameParams; Body: { name: string } }>(
    '/v1/tags/:name',
    {
      config: { scope: 'links:write' },
      schema: {
        summary: 'Rename a tag on every link the key can see, merging into an existing one',
        tags: ['tags'],
        security,
        params: tagNameParams,
        body: renameTagBody,
        response: { 200: renamedTagJson, ...errors, 404: problemResponse },
      },
    },
    async (request) =>
      renameTag(services, principalOf(request), request.params.name, request.body.name),
  );

  app.delete<{ Params: NameParams }>(
    '/v1/tags/:name',
    {
      config: { scope: 'links:write' },
      schema: {
        summary: 'Remove a tag from every link the key can see',
        tags: ['tags'],
        security,
        params: tagNameParams,
        response: {
          204: { type: 'null', description: 'Removed.' },
          ...errors,
          404: problemResponse,
        },
      },
    },
    async (request, reply) => {
      await deleteTag(services, principalOf(request), request.params.name);
      return reply.code(204).send();
    },
  );
}

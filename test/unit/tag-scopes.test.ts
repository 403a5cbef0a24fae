import assert from 'node:assert/strict';
import { test } from 'node:test';
import { principalFor, type Scope } from '../../src/domain/principal.js';
import { deleteTag } from '../../src/services/tags/delete-tag.js';
import { listTags } from '../../src/services/tags/list-tags.js';
import { renameTag } from '../../src/services/tags/rename-tag.js';
import type { TagServiceDeps } from '../../src/services/tags/tag-service-deps.js';

/** Deps that fail the test if read: the scope is checked before anything is. */
const untouched = new Proxy({} as TagServiceDeps, {
  get() {
    throw new Error('the store was read before the scope check');
  },
});

const keyWith = (...scopes: Scope[]) =>
  principalFor({ id: 'k', owner: 'someone', admin: false, scopes });

const refused = (scope: Scope) => ({
  name: 'HopError',
  kind: 'insufficient-scope',
  fields: [{ field: 'scope', detail: scope }],
});

// HTTP's 403 for these is the problem table's (insufficient-scope → 403); scoped keys
// arrive with the keys work of issue 22.
test('listing tags needs links:read; renaming and deleting need links:write', async () => {
  const reader = keyWith('links:read');
  const writer = keyWith('links:write');
  await assert.rejects(listTags(untouched, writer, {}), refused('links:read'));
  await assert.rejects(renameTag(untouched, reader, 'a', 'b'), refused('links:write'));
  await assert.rejects(deleteTag(untouched, reader, 'a'), refused('links:write'));
  await assert.rejects(renameTag(untouched, keyWith('analytics:read'), 'a', 'b'), {
    kind: 'insufficient-scope',
  });
});

import type { TagQueries } from '../../ports/tag-queries.js';
import type { LinkServiceDeps } from '../links/link-service-deps.js';

/** What the tag use cases need (issue 22, ADR 0119), built once by the composition root. */
export interface TagServiceDeps {
  /** Tags are changed on links as every edit changes them: compare-and-set, events. */
  readonly links: LinkServiceDeps;
  readonly tags: TagQueries;
}

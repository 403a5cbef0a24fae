import type { LinkPreview } from '../../domain/link-preview.js';
import { parsePreviewInput } from '../../domain/parse-preview-input.js';
import { checkUrlByPolicy } from '../../domain/smart/parse-smart-input.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/** A write's `preview` checked (issue 22): its image under the destination policy. */
export function checkPreview(value: unknown, deps: LinkServiceDeps): LinkPreview | null {
  return parsePreviewInput(value, checkUrlByPolicy(deps.destinationPolicy));
}

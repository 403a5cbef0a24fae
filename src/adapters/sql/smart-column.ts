import type { LinkPreview } from '../../domain/link-preview.js';
import type { SmartOptions } from '../../domain/smart/smart-options.js';

/**
 * The `smart` column of both SQL stores: a link's SmartOptions as JSON text (issue 21),
 * NULL for a plain link. Written and read by hop alone, so a read trusts its shape; the
 * column's text is the JSON of the domain object, so both stores keep the same bytes.
 */
export function smartColumnOf(smart: SmartOptions | null): string | null {
  return smart === null ? null : JSON.stringify(smart);
}

export function smartFromColumn(text: string | null): SmartOptions | null {
  return text === null ? null : (JSON.parse(text) as SmartOptions);
}

/** The `preview` column of both SQL stores (issue 22): the LinkPreview as JSON text, or NULL. */
export function previewColumnOf(preview: LinkPreview | null): string | null {
  return preview === null ? null : JSON.stringify(preview);
}

export function previewFromColumn(text: string | null): LinkPreview | null {
  return text === null ? null : (JSON.parse(text) as LinkPreview);
}

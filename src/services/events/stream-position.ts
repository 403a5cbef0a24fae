import { isEventPosition } from '../../ports/event-log.js';

/**
 * Where an event stream is in both logs (ADR 0129): a link event's position and a click
 * event's, each as its log made it (`''`: before the first).
 */
export interface StreamPosition {
  readonly links: string;
  readonly clicks: string;
}

/** Joins the two logs' positions; `~` is in neither (ADR 0127: digits and `:`). */
const SEPARATOR = '~';

/** The text of a stream position, as an event's `id:` carries it: `<links>~<clicks>`. */
export function formatStreamPosition(position: StreamPosition): string {
  return `${position.links}${SEPARATOR}${position.clicks}`;
}

/** The stream position `text` names, or null when it is not one `formatStreamPosition` makes. */
export function parseStreamPosition(text: string): StreamPosition | null {
  const parts = text.split(SEPARATOR);
  if (parts.length !== 2) return null;
  const [links, clicks] = parts as [string, string];
  if (!isEventPosition(links) || !isEventPosition(clicks)) return null;
  return { links, clicks };
}

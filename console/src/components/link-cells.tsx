import type { Link } from '../api.js';

/** A link's state as a coloured badge. */
export function StateBadge(props: { state: Link['state']; testId?: string }) {
  return (
    <span class={`state ${props.state}`} data-testid={props.testId}>
      {props.state}
    </span>
  );
}

/**
 * The cells every table of links starts with: its code (to its page), destination, state.
 * A deleted link has no page (the API answers 404 for it, as for an unknown id): its code
 * is not a link.
 */
export function LinkCells({ link }: { link: Link }) {
  return (
    <>
      <td>
        {link.state === 'deleted' ? (
          <span class="code">{link.code}</span>
        ) : (
          <a href={`#/links/${link.id}`}>{link.code}</a>
        )}
      </td>
      <td class="destination" title={link.destination}>
        {link.destination}
      </td>
      <td>
        <StateBadge state={link.state} />
      </td>
    </>
  );
}

import type { Link } from '../api.js';

/** A link's state as a coloured badge. */
export function StateBadge(props: { state: Link['state']; testId?: string }) {
  return (
    <span class={`state ${props.state}`} data-testid={props.testId}>
      {props.state}
    </span>
  );
}

/** The cells every table of links starts with: its code (to its page), destination, state. */
export function LinkCells({ link }: { link: Link }) {
  return (
    <>
      <td>
        <a href={`#/links/${link.id}`}>{link.code}</a>
      </td>
      <td class="destination">{link.destination}</td>
      <td>
        <StateBadge state={link.state} />
      </td>
    </>
  );
}

import { api, type Link } from '../api.js';

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
      <CodeCell link={link} />
      <td class="destination" title={link.destination}>
        {link.destination}
      </td>
      <td>
        <StateBadge state={link.state} />
      </td>
    </>
  );
}

/**
 * A link's code, to its page (a deleted link has none); with `domain`, its short domain
 * under it (issue 22), which keeps the links table as narrow as before domains.
 */
export function CodeCell({ link, domain = false }: { link: Link; domain?: boolean }) {
  return (
    <td>
      {link.state === 'deleted' ? (
        <span class="code">{link.code}</span>
      ) : (
        <a href={`#/links/${link.id}`}>{link.code}</a>
      )}
      {domain && <small class="domain">{link.domain}</small>}
    </td>
  );
}

/** A link's QR code as SVG, and the PNG to download; fetched with the session cookie. */
export function QrCode({ link, size }: { link: Link; size: number }) {
  return (
    <>
      <img
        src={api.qrUrl(link.id, 'svg', size)}
        width={size}
        height={size}
        alt={`QR code of ${link.short_url}`}
      />
      <a href={api.qrUrl(link.id, 'png', 1024)} download={`${link.code}.png`}>
        Download PNG
      </a>
    </>
  );
}

/**
 * Copies a link's short URL. The clipboard API exists only in secure contexts (https, or
 * localhost): `insecure` says the visitor must copy it by hand.
 */
export async function copyShortUrl(link: Link): Promise<'copied' | 'insecure' | 'failed'> {
  if (!('clipboard' in navigator)) return 'insecure';
  try {
    await navigator.clipboard.writeText(link.short_url);
    return 'copied';
  } catch {
    return 'failed';
  }
}

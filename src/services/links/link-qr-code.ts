import type { ShortUrls } from '../redirect/domain-routes.js';
import type { Principal } from '../../domain/principal.js';
import type { QrFormat, QrImage, QrRenderer } from '../../ports/qr-renderer.js';
import { findVisibleLinkOrThrow, type LinkLookups } from './find-visible-link.js';

export type { QrFormat, QrImage } from '../../ports/qr-renderer.js';

export interface LinkQrDeps {
  readonly links: LinkLookups;
  readonly qr: QrRenderer;
  /** The short URLs (HOP_PUBLIC_URL's, or the link's domain's): what the code encodes. */
  readonly shortUrls: ShortUrls;
}

/** The QR code of a link's short URL, for whoever may see the link (SPEC §3). */
export async function linkQrCode(
  deps: LinkQrDeps,
  principal: Principal,
  id: string,
  format: QrFormat,
  size: number,
): Promise<QrImage> {
  const link = await findVisibleLinkOrThrow(deps.links, principal, id);
  return deps.qr.render(deps.shortUrls.shortUrlOf(link.domain, link.code), format, size);
}

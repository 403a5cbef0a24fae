export type QrFormat = 'svg' | 'png';

export interface QrImage {
  readonly contentType: 'image/svg+xml' | 'image/png';
  readonly body: Buffer;
}

/** Draws QR codes (SPEC §3: a link's short URL, for print and screens). */
export interface QrRenderer {
  /** `text` as a QR code about `size` pixels wide (PNG) or with that viewBox width (SVG). */
  render(text: string, format: QrFormat, size: number): Promise<QrImage>;
}

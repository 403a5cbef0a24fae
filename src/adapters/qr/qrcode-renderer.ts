import QRCode from 'qrcode';
import type { QrFormat, QrImage, QrRenderer } from '../../ports/qr-renderer.js';

/**
 * The `qrcode` package. Error correction M (15% of the symbol may be damaged or covered and
 * it still scans): the usual choice for a short URL printed or shown on a screen. A quiet
 * zone of 4 modules, as the QR specification asks.
 */
export class QrcodeRenderer implements QrRenderer {
  async render(text: string, format: QrFormat, size: number): Promise<QrImage> {
    const options = { errorCorrectionLevel: 'M', margin: 4, width: size } as const;
    if (format === 'png') {
      return { contentType: 'image/png', body: await QRCode.toBuffer(text, options) };
    }
    // With `width`, the package gives the drawing its size itself (width and height).
    const svg = await QRCode.toString(text, { ...options, type: 'svg' });
    return { contentType: 'image/svg+xml', body: Buffer.from(svg, 'utf8') };
  }
}

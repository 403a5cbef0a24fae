import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';
import type { QrFormat, QrImage, QrRenderer } from '../../ports/qr-renderer.js';
import { PngThread } from './png-thread.js';

/** PNGs kept, by size and text: a link's short URL never changes, so neither does its QR. */
const PNG_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The `qrcode` package. Error correction M (15% of the symbol may be damaged or covered and
 * it still scans): the usual choice for a short URL printed or shown on a screen. A quiet
 * zone of 4 modules, as the QR specification asks. SVGs are drawn here (half a millisecond
 * whatever the size: the size is only a number in the drawing); PNGs in a thread of their
 * own, and the latest kept.
 */
export class QrcodeRenderer implements QrRenderer {
  readonly #pngThread = new PngThread();
  readonly #pngs = new LRUCache<string, Buffer>({
    maxSize: PNG_CACHE_BYTES,
    sizeCalculation: (png) => png.length,
  });

  async render(text: string, format: QrFormat, size: number): Promise<QrImage> {
    const options = { errorCorrectionLevel: 'M', margin: 4, width: size } as const;
    if (format === 'png') {
      const key = `${size} ${text}`;
      let png = this.#pngs.get(key);
      if (png === undefined) {
        png = await this.#pngThread.render(text, options);
        this.#pngs.set(key, png);
      }
      return { contentType: 'image/png', body: png };
    }
    // With `width`, the package gives the drawing its size itself (width and height).
    const svg = await QRCode.toString(text, { ...options, type: 'svg' });
    return { contentType: 'image/svg+xml', body: Buffer.from(svg, 'utf8') };
  }

  /** Stops the PNG thread; renders still waiting fail. */
  close(): Promise<void> {
    return this.#pngThread.close();
  }
}

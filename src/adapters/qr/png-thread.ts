import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface PngOptions {
  readonly errorCorrectionLevel: 'M';
  readonly margin: number;
  readonly width: number;
}

interface Reply {
  readonly id: number;
  readonly png?: Uint8Array;
  readonly error?: string;
}

/**
 * Plain JavaScript, evaluated in the thread: it needs nothing but `qrcode`, found where the
 * main thread finds it, so it runs the same under tsx and compiled.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const QRCode = require(workerData.qrcode);
parentPort.on('message', ({ id, text, options }) => {
  QRCode.toBuffer(text, options).then(
    (png) => parentPort.postMessage({ id, png }),
    (error) => parentPort.postMessage({ id, error: String(error) }),
  );
});
`;

/** A PNG of 2,048 pixels is drawn and deflated in one synchronous stretch: 64 MB suffice. */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

/**
 * Draws QR PNGs in a worker thread. `qrcode` draws and compresses a PNG synchronously
 * (about 9 ms at 256 pixels and 235 ms at 2,048 here), which on the main thread would
 * stall every redirect meanwhile. Renders queue in the thread one after another; how many
 * can wait is bounded by the load shedder's in-flight limit, like any request. The thread
 * starts on the first PNG, keeps the process alive only while it has work, and is started
 * again if it dies.
 */
export class PngThread {
  #worker: Worker | null = null;
  #nextId = 0;
  readonly #waiting = new Map<
    number,
    { resolve: (png: Buffer) => void; reject: (error: Error) => void }
  >();

  render(text: string, options: PngOptions): Promise<Buffer> {
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, text, options });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#failAll(new Error('the QR thread was stopped'));
    await worker?.terminate();
  }

  #start(): Worker {
    const qrcode = createRequire(import.meta.url).resolve('qrcode');
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { qrcode },
      resourceLimits: THREAD_HEAP,
    });
    worker.on('message', (reply: Reply) => {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      if (reply.png !== undefined) {
        // A buffer of exactly its own bytes: the view arrives on a copy of the thread's whole
        // 8 KiB pool block, which the cache would keep alive while counting only the PNG.
        const png = Buffer.allocUnsafeSlow(reply.png.byteLength);
        png.set(reply.png);
        waiter?.resolve(png);
      } else {
        waiter?.reject(new Error(`the QR code could not be drawn: ${reply.error ?? 'unknown'}`));
      }
    });
    const lost = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      lost(new Error(`the QR thread exited (${code})`));
    });
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}

import { open } from 'node:fs/promises';
import type { CodeRecycler } from '../../ports/code-recycler.js';

/**
 * Returns reclaimed codes to a pool file (SPEC §7: "reclaimed codes are appended"). One
 * append-mode write per call: the kernel places each O_APPEND write at the end of the file,
 * so processes appending at once never interleave inside a write, and a reader never counts
 * a partly written code (it counts whole widths only). Codes of another width than the
 * pool's cannot live in it; their rows are freed all the same, for random codes or aliases.
 */
export class PoolCodeRecycler implements CodeRecycler {
  readonly #file: string;
  readonly #width: number;

  constructor(file: string, width: number) {
    this.#file = file;
    this.#width = width;
  }

  async recycle(codes: readonly string[]): Promise<void> {
    const fitting = codes.filter((code) => code.length === this.#width);
    if (fitting.length === 0) return;
    const handle = await open(this.#file, 'a');
    try {
      await handle.write(Buffer.from(fitting.join(''), 'latin1'));
      // The rows are deleted after this resolves: the codes must be on disk first.
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import {
  decodePoolHeader,
  POOL_HEADER_BYTES,
  poolCodeCount,
  poolCodePosition,
  type PoolHeader,
} from './pool-file-format.js';
import type { PoolFile } from '../../ports/pool-file.js';

/** Reads the header of the pool file at `path`; throws with a reason if it is not one. */
export function readPoolFileHeader(path: string): PoolHeader {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(POOL_HEADER_BYTES);
    const read = readSync(fd, bytes, 0, POOL_HEADER_BYTES, 0);
    const header = decodePoolHeader(bytes.subarray(0, read));
    if (header === null) throw new Error('not a hop pool file (run `hop pool generate`)');
    if (fstatSync(fd).size < POOL_HEADER_BYTES) throw new Error('truncated pool file');
    return header;
  } finally {
    closeSync(fd);
  }
}

/**
 * A pool file on disk, read with positioned reads on one handle. Its size is read anew for
 * each count, so codes appended by the sweeper (of this or another process) are seen.
 */
export class FsPoolFile implements PoolFile {
  readonly width: number;
  readonly id: string;
  readonly #path: string;
  #handle: Promise<FileHandle> | null = null;

  constructor(path: string, header: PoolHeader) {
    this.#path = path;
    this.width = header.width;
    this.id = header.id;
  }

  /** Opens the pool file at `path`, checking its header first. */
  static open(path: string): FsPoolFile {
    return new FsPoolFile(path, readPoolFileHeader(path));
  }

  async codeCount(): Promise<number> {
    const handle = await this.#file();
    return poolCodeCount((await handle.stat()).size, this.width);
  }

  async read(first: number, count: number): Promise<string[]> {
    const handle = await this.#file();
    const bytes = Buffer.allocUnsafe(count * this.width);
    const position = poolCodePosition(first, this.width);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, position);
    if (bytesRead !== bytes.length) {
      throw new Error(`pool file ${this.#path} ended early at code ${first}`);
    }
    const text = bytes.toString('latin1');
    const codes: string[] = [];
    for (let at = 0; at < text.length; at += this.width) {
      codes.push(text.slice(at, at + this.width));
    }
    return codes;
  }

  async close(): Promise<void> {
    const handle = await this.#handle?.catch(() => null);
    this.#handle = null;
    await handle?.close();
  }

  #file(): Promise<FileHandle> {
    this.#handle ??= open(this.#path, 'r');
    return this.#handle;
  }
}

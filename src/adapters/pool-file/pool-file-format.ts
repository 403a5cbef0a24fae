/**
 * A pool file (SPEC §2, `pool` strategy): a fixed 64-byte ASCII header, then codes of one
 * fixed width back to back with no separators, so code `i` starts at byte
 * `POOL_HEADER_BYTES + i * width` and a server can read any batch with one positioned read.
 *
 * The header names the width and a random pool id. Servers keep their shared offset under
 * the pool id, so a pool generated anew starts from its own first code instead of
 * inheriting the old file's offset.
 */
export const POOL_HEADER_BYTES = 64;
const MAGIC = 'hop-pool v1';
const HEADER_PATTERN = /^hop-pool v1 width=(\d{1,2}) id=([0-9a-f]{16}) *\n$/;

export interface PoolHeader {
  /** Characters in every code of the file. */
  readonly width: number;
  /** 16 hex digits, random, chosen when the file was generated. */
  readonly id: string;
}

/** The header as the 64 bytes that start a pool file. */
export function encodePoolHeader(header: PoolHeader): Buffer {
  if (!Number.isInteger(header.width) || header.width < 1 || header.width > 99) {
    throw new RangeError('A pool code has 1 to 99 characters.');
  }
  if (!/^[0-9a-f]{16}$/.test(header.id)) throw new RangeError('A pool id is 16 hex digits.');
  const text = `${MAGIC} width=${header.width} id=${header.id}`;
  return Buffer.from(text.padEnd(POOL_HEADER_BYTES - 1, ' ') + '\n', 'ascii');
}

/** The header of `bytes` (the first 64 bytes of a file), or null if they are not one. */
export function decodePoolHeader(bytes: Uint8Array): PoolHeader | null {
  if (bytes.length < POOL_HEADER_BYTES) return null;
  const text = Buffer.from(bytes.subarray(0, POOL_HEADER_BYTES)).toString('latin1');
  const match = HEADER_PATTERN.exec(text);
  if (match === null) return null;
  return { width: Number(match[1]), id: match[2] as string };
}

/** Codes a pool file of `byteLength` bytes holds (a torn last append is not counted). */
export function poolCodeCount(byteLength: number, width: number): number {
  return Math.max(0, Math.floor((byteLength - POOL_HEADER_BYTES) / width));
}

/** Byte position of code `index`. */
export function poolCodePosition(index: number, width: number): number {
  return POOL_HEADER_BYTES + index * width;
}

import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  encodePoolHeader,
  type PoolHeader,
} from '../../src/adapters/pool-file/pool-file-format.js';

/** Writes a pool file of exactly `codes` (all one width) and returns its header. */
export function writePoolFile(file: string, codes: readonly string[], width: number): PoolHeader {
  const header = { width, id: randomBytes(8).toString('hex') };
  for (const code of codes) if (code.length !== width) throw new Error(`bad test code ${code}`);
  writeFileSync(file, Buffer.concat([encodePoolHeader(header), Buffer.from(codes.join(''))]));
  return header;
}

/** `count` distinct codes of `width` characters: p0000000, p0000001, ... */
export function numberedCodes(count: number, width: number, prefix = 'p'): string[] {
  return Array.from(
    { length: count },
    (_, i) => `${prefix}${String(i).padStart(width - prefix.length, '0')}`,
  );
}

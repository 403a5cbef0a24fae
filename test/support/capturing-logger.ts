import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../src/observability/logger.js';

/** A logger at info whose lines (JSON, one each) the test can read. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

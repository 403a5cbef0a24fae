import { Transform, type TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Passes bytes through unchanged and answers which physical line a byte offset is on.
 * csv-parse's own `info.lines` counts a CRLF inside a quoted cell as two lines, so a file
 * from Excel on Windows would be reported a line off per multi-line cell; counting LF bytes
 * here is right for LF and CRLF files alike. Offsets asked about must not go back; bytes
 * already counted are let go, so memory stays what the parser has not yet used.
 */
export class LineCounter extends Transform {
  /** Chunks passed through that hold bytes not yet counted; the first starts at #firstStart. */
  readonly #chunks: Buffer[] = [];
  #firstStart = 0;
  /** Bytes before this offset are counted; #line is the line that offset is on. */
  #counted = 0;
  #line = 1;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#chunks.push(chunk);
    done(null, chunk);
  }

  /** The line (1-based) the byte at `offset` is on. */
  lineAt(offset: number): number {
    while (this.#counted < offset) {
      const chunk = this.#chunks[0];
      if (chunk === undefined) break;
      const end = Math.min(chunk.length, offset - this.#firstStart);
      let newline = chunk.indexOf(NEWLINE, this.#counted - this.#firstStart);
      while (newline !== -1 && newline < end) {
        this.#line++;
        newline = chunk.indexOf(NEWLINE, newline + 1);
      }
      this.#advanceTo(end);
    }
    return this.#line;
  }

  /**
   * The line of the first byte at or after `offset` that is not a line break: where a row
   * starts when blank lines come before it.
   */
  lineOfContentAt(offset: number): number {
    this.lineAt(offset);
    for (let chunk = this.#chunks[0]; chunk !== undefined; chunk = this.#chunks[0]) {
      const at = this.#counted - this.#firstStart;
      if (at >= chunk.length) {
        this.#advanceTo(chunk.length);
        continue;
      }
      const byte = chunk[at] as number;
      if (byte !== NEWLINE && byte !== CARRIAGE_RETURN) break;
      if (byte === NEWLINE) this.#line++;
      this.#advanceTo(at + 1);
    }
    return this.#line;
  }

  /** Marks the first chunk counted up to `end` (an index into it), letting it go when done. */
  #advanceTo(end: number): void {
    const chunk = this.#chunks[0] as Buffer;
    this.#counted = this.#firstStart + end;
    if (end === chunk.length) {
      this.#chunks.shift();
      this.#firstStart += chunk.length;
    }
  }
}

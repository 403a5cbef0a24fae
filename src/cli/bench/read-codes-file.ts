import { readFileSync } from 'node:fs';
import { isPossibleCode } from '../../domain/code-format.js';
import { BenchError } from './bench-error.js';

/**
 * The codes of a file with one code a line (what `hop links seed --codes` writes); blank
 * lines are skipped. A line that cannot be a code is refused with its line number.
 */
export function readCodesFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BenchError(`cannot read --codes ${file}: ${reason}`);
  }
  const codes: string[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const code = line.trim();
    if (code === '') continue;
    if (!isPossibleCode(code)) {
      throw new BenchError(
        `${file} line ${index + 1}: ${JSON.stringify(code.slice(0, 80))} is not a code ` +
          '(1 to 64 of A-Z a-z 0-9 - . _ ~)',
      );
    }
    codes.push(code);
  }
  if (codes.length === 0) throw new BenchError(`${file} holds no codes`);
  return codes;
}

import { readFileSync } from 'node:fs';

/** The request paths of one scenario, one a line, as run-bench writes them. */
export function readPaths(file: string): string[] {
  const paths = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  if (paths.length === 0) throw new Error(`${file} holds no paths`);
  return paths;
}

/**
 * Endless round-robin over items from a random start, as paths.lua does, so repeated runs
 * do not all begin with the same requests.
 */
export function cycle<T>(items: readonly T[]): () => T {
  let index = Math.floor(Math.random() * items.length);
  return () => {
    index = index + 1 === items.length ? 0 : index + 1;
    return items[index] as T;
  };
}

// One step of a field path: a name, `.name`, `[2]` or `["odd key"]` (ADR 0108's bracket paths).
const PATH_STEP = /^[^.[]+|\.[^.[]+|\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g;

/**
 * A field path and each shorter path it lies under, longest first:
 * `rules[2].when.country[0]`, `rules[2].when.country`, `rules[2].when`, `rules[2]`, `rules`.
 */
export function pathPrefixes(path: string): string[] {
  const steps = path.match(PATH_STEP) ?? [];
  if (steps.join('') !== path) return [path, path.split('.')[0] ?? path];
  const prefixes: string[] = [];
  for (let end = steps.length; end > 0; end--) prefixes.push(steps.slice(0, end).join(''));
  return prefixes;
}

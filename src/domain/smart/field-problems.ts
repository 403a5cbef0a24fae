import type { FieldProblem } from '../errors.js';

/**
 * Every problem found in one input, each named by its path in bracket notation
 * (`rules[2].when.country[0]`, `variants[1].weight`, `utm.source`): issue 21 asks for
 * the field, and for all of them at once rather than the first.
 */
export class FieldProblems {
  readonly #problems: FieldProblem[] = [];

  add(field: string, detail: string): void {
    this.#problems.push({ field, detail });
  }

  get count(): number {
    return this.#problems.length;
  }

  list(): readonly FieldProblem[] {
    return [...this.#problems];
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `parent.key`, or `parent["odd key"]` when the key is not a plain name. */
export function keyPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a JSON object; otherwise reports `detail` at `path` and gives null. */
export function objectOrProblem(
  value: unknown,
  path: string,
  detail: string,
  problems: FieldProblems,
): Readonly<Record<string, unknown>> | null {
  if (isJsonObject(value)) return value;
  problems.add(path, detail);
  return null;
}

/** Reports each key of `object` not in `allowed`; true when there were none. */
export function refuseUnknownKeys(
  object: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  path: string,
  problems: FieldProblems,
): boolean {
  let clean = true;
  for (const key of Object.keys(object)) {
    if (allowed.includes(key)) continue;
    problems.add(keyPath(path, key), `Unknown field; expected one of ${allowed.join(', ')}.`);
    clean = false;
  }
  return clean;
}

import {
  FieldProblems,
  indexPath,
  isJsonObject,
  keyPath,
  objectOrProblem,
  refuseUnknownKeys,
} from './field-problems.js';
import { normaliseIpCondition } from './ip-ranges.js';
import { parseRfc3339 } from './rfc3339.js';
import { BROWSERS, DEVICES, OPERATING_SYSTEMS, type RuleConditions } from './smart-options.js';

/** Values in one condition's list: far more than any rule needs, few enough to scan. */
export const MAX_CONDITION_VALUES = 50;
export const MAX_QUERY_CONDITIONS = 20;
export const MAX_QUERY_NAME_LENGTH = 100;
export const MAX_QUERY_VALUE_LENGTH = 500;
/** RFC 5646 §4.4.1: 35 characters hold every tag that matters. */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

const CONDITION_KEYS = [
  'device',
  'os',
  'browser',
  'language',
  'country',
  'query',
  'ip',
  'after',
  'before',
] as const;
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;
const COUNTRY_CODE = /^[A-Za-z]{2}$/;
/** Cloudflare's "unknown" and ISO's user-assigned "unknown": no visitor is in either. */
const NO_COUNTRY = new Set(['XX', 'ZZ']);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A rule's `when`, normalised (ADR 0108), or null when it has problems (all reported). */
export function parseRuleConditions(
  input: unknown,
  path: string,
  problems: FieldProblems,
): RuleConditions | null {
  const value = objectOrProblem(
    input,
    path,
    'Conditions are an object: {"country": ["DE"]}.',
    problems,
  );
  if (value === null) return null;
  const before = problems.count;
  refuseUnknownKeys(value, CONDITION_KEYS, path, problems);
  const when: Mutable<RuleConditions> = {};
  const list = <T>(key: string, parse: (item: string) => T | null, expected: string) =>
    parseList(value[key], keyPath(path, key), problems, parse, expected);

  if (value.device !== undefined) {
    const device = list('device', enumParser(DEVICES), `one of ${DEVICES.join(', ')}`);
    if (device !== null) when.device = device;
  }
  if (value.os !== undefined) {
    const os = list('os', enumParser(OPERATING_SYSTEMS), `one of ${OPERATING_SYSTEMS.join(', ')}`);
    if (os !== null) when.os = os;
  }
  if (value.browser !== undefined) {
    const browser = list('browser', enumParser(BROWSERS), `one of ${BROWSERS.join(', ')}`);
    if (browser !== null) when.browser = browser;
  }
  if (value.language !== undefined) {
    const language = list('language', parseLanguageTag, 'a language tag such as de or pt-BR');
    if (language !== null) when.language = language;
  }
  if (value.country !== undefined) {
    const country = list('country', parseCountry, 'an ISO 3166-1 alpha-2 code such as DE');
    if (country !== null) when.country = country;
  }
  if (value.query !== undefined) {
    const query = parseQueryCondition(value.query, keyPath(path, 'query'), problems);
    if (query !== null) when.query = query;
  }
  if (value.ip !== undefined) {
    const ip = list('ip', normaliseIpCondition, 'an IPv4 or IPv6 address or CIDR');
    if (ip !== null) when.ip = ip;
  }
  const after = parseInstant(value.after, keyPath(path, 'after'), problems);
  if (after !== null) when.after = after;
  const beforeInstant = parseInstant(value.before, keyPath(path, 'before'), problems);
  if (beforeInstant !== null) when.before = beforeInstant;
  if (after !== null && beforeInstant !== null && after >= beforeInstant) {
    problems.add(keyPath(path, 'before'), 'before must be later than after.');
  }

  if (problems.count > before) return null;
  if (Object.keys(when).length === 0) {
    problems.add(path, 'A rule needs at least one condition.');
    return null;
  }
  return when;
}

function parseList<T>(
  value: unknown,
  path: string,
  problems: FieldProblems,
  parse: (item: string) => T | null,
  expected: string,
): T[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CONDITION_VALUES) {
    problems.add(path, `A list of 1 to ${MAX_CONDITION_VALUES} values, each ${expected}.`);
    return null;
  }
  const parsed: T[] = [];
  let clean = true;
  value.forEach((item: unknown, index) => {
    const result = typeof item === 'string' ? parse(item) : null;
    if (result === null) {
      problems.add(indexPath(path, index), `Expected ${expected}.`);
      clean = false;
    } else if (!parsed.includes(result)) {
      parsed.push(result);
    }
  });
  return clean ? parsed : null;
}

function enumParser<T extends string>(values: readonly T[]): (item: string) => T | null {
  return (item) => ((values as readonly string[]).includes(item) ? (item as T) : null);
}

function parseLanguageTag(item: string): string | null {
  return item.length <= MAX_LANGUAGE_TAG_LENGTH && LANGUAGE_TAG.test(item)
    ? item.toLowerCase()
    : null;
}

function parseCountry(item: string): string | null {
  const upper = item.toUpperCase();
  return COUNTRY_CODE.test(item) && !NO_COUNTRY.has(upper) ? upper : null;
}

function parseQueryCondition(
  value: unknown,
  path: string,
  problems: FieldProblems,
): Record<string, string | true> | null {
  const entries = isJsonObject(value) ? Object.entries(value) : [];
  if (entries.length === 0 || entries.length > MAX_QUERY_CONDITIONS) {
    problems.add(
      path,
      `An object of 1 to ${MAX_QUERY_CONDITIONS} parameters: {"name": "value"} or {"name": true}.`,
    );
    return null;
  }
  let clean = true;
  for (const [name, expected] of entries) {
    const field = keyPath(path, name);
    if (name.length === 0 || name.length > MAX_QUERY_NAME_LENGTH) {
      problems.add(field, `A parameter name has 1 to ${MAX_QUERY_NAME_LENGTH} characters.`);
      clean = false;
    }
    const valueOk =
      expected === true ||
      (typeof expected === 'string' && expected.length <= MAX_QUERY_VALUE_LENGTH);
    if (!valueOk) {
      problems.add(
        field,
        `A string of at most ${MAX_QUERY_VALUE_LENGTH} characters, or true for present with any value.`,
      );
      clean = false;
    }
  }
  // fromEntries defines each name as an own property, `__proto__` included.
  return clean ? (Object.fromEntries(entries) as Record<string, string | true>) : null;
}

function parseInstant(value: unknown, path: string, problems: FieldProblems): number | null {
  if (value === undefined) return null;
  const instant = typeof value === 'string' ? parseRfc3339(value) : null;
  if (instant === null) {
    problems.add(path, 'An RFC 3339 date-time such as 2026-12-24T18:00:00Z.');
  }
  return instant;
}

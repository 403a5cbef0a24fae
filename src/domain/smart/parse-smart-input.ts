import { checkDestination, type DestinationPolicyOptions } from '../destination-policy.js';
import { HopError, type FieldProblem } from '../errors.js';
import { isRedirectStatus } from '../link.js';
import {
  FieldProblems,
  indexPath,
  keyPath,
  objectOrProblem,
  refuseUnknownKeys,
} from './field-problems.js';
import { parseRuleConditions } from './parse-rule-conditions.js';
import {
  MAX_PASSWORD_LENGTH,
  MAX_RULES,
  MAX_VARIANT_WEIGHT,
  MAX_VARIANTS,
  MIN_PASSWORD_LENGTH,
  MIN_VARIANT_WEIGHT,
  MIN_VARIANTS,
  type LinkRule,
  type LinkVariant,
} from './smart-options.js';
import { parseUtmInput } from './parse-utm-input.js';
import type { UtmChanges } from './utm.js';

/**
 * The smart-link fields of a create or update body (issue 21), checked and normalised.
 * A field absent from the body is absent here (an update leaves it alone); null clears
 * it. The password is only length-checked: hashing it is the caller's job.
 */
export interface SmartInput {
  readonly rules?: readonly LinkRule[];
  readonly variants?: readonly LinkVariant[];
  readonly maxClicks?: number | null;
  readonly fallbackUrl?: string | null;
  readonly forwardQuery?: boolean;
  /** In clear, to be hashed; null removes the password. */
  readonly password?: string | null;
  /** `utm: null` in the body removes all five. */
  readonly utm?: UtmChanges;
}

/** The URL policy of `destination` (destination-policy.ts), applied by the caller. */
export type CheckUrl = (
  url: string,
) => { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/** The policy of `destination` as a CheckUrl, for rule, variant and fallback URLs alike. */
export function checkUrlByPolicy(policy: DestinationPolicyOptions): CheckUrl {
  return (url) => {
    const verdict = checkDestination(url, policy);
    return verdict.ok ? { ok: true, url: verdict.destination } : verdict;
  };
}

export const MAX_CLICKS_LIMIT = 1_000_000_000;

const RULE_KEYS = ['destination', 'status_code', 'when'] as const;
const VARIANT_KEYS = ['destination', 'weight'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The input and every problem found in it (for a caller that reports other fields too). */
export function readSmartInput(
  body: Readonly<Record<string, unknown>>,
  checkUrl: CheckUrl,
): { readonly input: SmartInput; readonly problems: readonly FieldProblem[] } {
  const problems = new FieldProblems();
  const input: Mutable<SmartInput> = {};
  if (body.rules !== undefined) input.rules = parseRules(body.rules, checkUrl, problems);
  if (body.variants !== undefined) {
    input.variants = parseVariants(body.variants, checkUrl, problems);
  }
  if (body.max_clicks !== undefined) input.maxClicks = parseMaxClicks(body.max_clicks, problems);
  if (body.fallback_url !== undefined) {
    input.fallbackUrl =
      body.fallback_url === null
        ? null
        : parseUrl(body.fallback_url, 'fallback_url', checkUrl, problems);
  }
  if (body.forward_query !== undefined) {
    // null removes it, as for the other fields: not forwarding is the default.
    if (body.forward_query === null) input.forwardQuery = false;
    else if (typeof body.forward_query === 'boolean') input.forwardQuery = body.forward_query;
    else problems.add('forward_query', 'true or false.');
  }
  if (body.password !== undefined) input.password = parsePassword(body.password, problems);
  if (body.utm !== undefined) input.utm = parseUtmInput(body.utm, problems);
  return { input, problems: problems.list() };
}

/** The input, or `invalid-request` naming every field with a problem. */
export function parseSmartInput(
  body: Readonly<Record<string, unknown>>,
  checkUrl: CheckUrl,
): SmartInput {
  const { input, problems } = readSmartInput(body, checkUrl);
  if (problems.length === 0) return input;
  const detail =
    problems.length === 1
      ? (problems[0] as FieldProblem).detail
      : 'Some smart link options are invalid.';
  throw new HopError('invalid-request', detail, { fields: problems });
}

function parseRules(value: unknown, checkUrl: CheckUrl, problems: FieldProblems): LinkRule[] {
  if (value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_RULES) {
    problems.add('rules', `A list of at most ${MAX_RULES} rules.`);
    return [];
  }
  const rules: LinkRule[] = [];
  value.forEach((item: unknown, index) => {
    const rule = parseRule(item, indexPath('rules', index), checkUrl, problems);
    if (rule !== null) rules.push(rule);
  });
  return rules;
}

function parseRule(
  input: unknown,
  path: string,
  checkUrl: CheckUrl,
  problems: FieldProblems,
): LinkRule | null {
  const value = objectOrProblem(
    input,
    path,
    'A rule is an object: {"destination", "when"}.',
    problems,
  );
  if (value === null) return null;
  const clean = refuseUnknownKeys(value, RULE_KEYS, path, problems);
  const destination = parseUrl(value.destination, keyPath(path, 'destination'), checkUrl, problems);
  let statusCode: LinkRule['statusCode'] = null;
  let statusOk = true;
  if (value.status_code !== undefined && value.status_code !== null) {
    if (isRedirectStatus(value.status_code)) statusCode = value.status_code;
    else {
      problems.add(keyPath(path, 'status_code'), 'One of 301, 302, 307 or 308.');
      statusOk = false;
    }
  }
  const when = parseRuleConditions(value.when, keyPath(path, 'when'), problems);
  if (!clean || destination === null || !statusOk || when === null) return null;
  return { destination, statusCode, when };
}

function parseVariants(value: unknown, checkUrl: CheckUrl, problems: FieldProblems): LinkVariant[] {
  if (value === null || (Array.isArray(value) && value.length === 0)) return [];
  if (!Array.isArray(value) || value.length < MIN_VARIANTS || value.length > MAX_VARIANTS) {
    problems.add(
      'variants',
      `A list of ${MIN_VARIANTS} to ${MAX_VARIANTS} variants (or an empty list for none).`,
    );
    return [];
  }
  const variants: LinkVariant[] = [];
  value.forEach((input: unknown, index) => {
    const path = indexPath('variants', index);
    const item = objectOrProblem(
      input,
      path,
      'A variant is an object: {"destination", "weight"}.',
      problems,
    );
    if (item === null) return;
    const clean = refuseUnknownKeys(item, VARIANT_KEYS, path, problems);
    const destination = parseUrl(
      item.destination,
      keyPath(path, 'destination'),
      checkUrl,
      problems,
    );
    const weight = item.weight;
    const weightOk =
      Number.isInteger(weight) &&
      (weight as number) >= MIN_VARIANT_WEIGHT &&
      (weight as number) <= MAX_VARIANT_WEIGHT;
    if (!weightOk) {
      problems.add(
        keyPath(path, 'weight'),
        `An integer from ${MIN_VARIANT_WEIGHT} to ${MAX_VARIANT_WEIGHT}.`,
      );
    }
    if (clean && destination !== null && weightOk) {
      variants.push({ destination, weight: weight as number });
    }
  });
  return variants;
}

function parseUrl(
  value: unknown,
  path: string,
  checkUrl: CheckUrl,
  problems: FieldProblems,
): string | null {
  if (typeof value !== 'string') {
    problems.add(path, 'An absolute http:// or https:// URL.');
    return null;
  }
  const verdict = checkUrl(value);
  if (verdict.ok) return verdict.url;
  problems.add(path, verdict.reason);
  return null;
}

function parseMaxClicks(value: unknown, problems: FieldProblems): number | null {
  if (value === null) return null;
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_CLICKS_LIMIT) {
    return value as number;
  }
  problems.add('max_clicks', `An integer from 1 to ${MAX_CLICKS_LIMIT}, or null for no limit.`);
  return null;
}

function parsePassword(value: unknown, problems: FieldProblems): string | null {
  if (value === null) return null;
  // Characters as people count them: code points, not UTF-16 units.
  const length = typeof value === 'string' ? codePointCount(value) : -1;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    problems.add(
      'password',
      `A password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (null removes it).`,
    );
    return null;
  }
  return value as string;
}

function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

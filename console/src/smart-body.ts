import { UTM_KEYS, type Link, type Rule, type RuleConditions, type Variant } from './api.js';
import { formText } from './form-text.js';
import { localDateTime } from './format.js';

/**
 * The smart-link part of the create form and the edit form (issue 21), read from their
 * FormData. Rows carry a hidden `rule`/`variant` input holding their key, so the form's
 * own order (after any reordering) is the rules' order, and each field is named by it.
 */

export const CHOICES = {
  device: ['mobile', 'tablet', 'desktop'],
  os: ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'],
  browser: ['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung'],
} as const;
export type ChoiceCondition = keyof typeof CHOICES;
export const LIST_CONDITIONS = ['language', 'country', 'ip'] as const;
export const INSTANT_CONDITIONS = ['after', 'before'] as const;
const CONDITIONS = [
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

/** The form field of one row: `rule-3-country`. */
export const rowField = (kind: 'rule' | 'variant', key: string, name: string) =>
  `${kind}-${key}-${name}`;

/** `name=value` lines; a line `name` alone asks for the parameter with any value. */
export function queryLines(query: RuleConditions['query']): string {
  return Object.entries(query ?? {})
    .map(([name, value]) => (value === true ? name : `${name}=${value}`))
    .join('\n');
}

function parseQueryLines(text: string): Record<string, string | true> | undefined {
  const query: Record<string, string | true> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const equals = trimmed.indexOf('=');
    if (equals === -1) query[trimmed] = true;
    else query[trimmed.slice(0, equals).trim()] = trimmed.slice(equals + 1).trim();
  }
  return Object.keys(query).length === 0 ? undefined : query;
}

const commaList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/**
 * A datetime-local value (the browser's time zone) as RFC 3339 UTC. An instant shown and
 * left as it was keeps its original value, seconds and all (the input shows minutes).
 */
function instant(text: string, was: string): string | undefined {
  if (text === '') return undefined;
  if (was !== '' && text === localDateTime(was)) return was;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? text : at.toISOString();
}

function readRule(form: FormData, key: string): Rule {
  const field = (name: string) => rowField('rule', key, name);
  const when: Record<string, unknown> = {};
  for (const name of Object.keys(CHOICES)) {
    const chosen = form.getAll(field(name)).filter((value) => typeof value === 'string');
    if (chosen.length > 0) when[name] = chosen;
  }
  for (const name of LIST_CONDITIONS) {
    const items = commaList(formText(form, field(name)));
    if (items.length > 0) when[name] = items;
  }
  const query = parseQueryLines(formText(form, field('query')));
  if (query !== undefined) when['query'] = query;
  for (const name of INSTANT_CONDITIONS) {
    const at = instant(formText(form, field(name)), formText(form, field(`${name}-was`)));
    if (at !== undefined) when[name] = at;
  }
  const status = formText(form, field('status_code'));
  const rule = { destination: formText(form, field('destination')), when };
  return status === '' ? rule : { ...rule, status_code: Number(status) };
}

/**
 * A whole number typed as text; anything else is sent as typed (empty as null), so the API
 * says under the field what it must be. (A number input would give '' for "1O" and a
 * typo would clear the value.)
 */
function wholeNumber(text: string): number | string | null {
  return /^\d+$/.test(text) ? Number(text) : text === '' ? null : text;
}

function readVariant(form: FormData, key: string): Variant {
  return {
    destination: formText(form, rowField('variant', key, 'destination')),
    weight: wholeNumber(formText(form, rowField('variant', key, 'weight'))) as number,
  };
}

const keysOf = (form: FormData, kind: 'rule' | 'variant') =>
  form.getAll(kind).filter((key) => typeof key === 'string');

/** Equal as JSON, whatever the order of object keys (the API writes `when` in its own). */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/**
 * The JSON the smart fields ask for. For a new link, only what was given. For an edit
 * (`link`), only what changed: rules and variants each as a whole list, UTM per key (null
 * removes one), and `password` only when a new one is typed or removal is ticked, so a
 * PATCH that leaves the password alone never carries one.
 */
export function smartFieldsBody(form: FormData, link?: Link): Record<string, unknown> {
  const rules = keysOf(form, 'rule').map((key) => readRule(form, key));
  const variants = keysOf(form, 'variant').map((key) => readVariant(form, key));
  // Never trimmed: spaces may be part of a password.
  const typed = form.get('password');
  const password =
    form.get('remove_password') !== null
      ? null
      : typeof typed === 'string' && typed !== ''
        ? typed
        : undefined;
  const maxClicks = wholeNumber(formText(form, 'max_clicks'));
  const fallback = formText(form, 'fallback_url');
  const fallbackUrl = fallback === '' ? null : fallback;
  const forwardQuery = form.get('forward_query') !== null;
  const utm: Record<string, string | null> = {};
  for (const key of UTM_KEYS) {
    const value = formText(form, `utm_${key}`);
    const before = link?.utm[key] ?? '';
    if (value !== before) utm[key] = value === '' ? null : value;
  }

  const body: Record<string, unknown> = {};
  const put = (name: string, value: unknown, before: unknown) => {
    if (!sameJson(value, before)) body[name] = value;
  };
  put('rules', rules, link?.rules ?? []);
  put('variants', variants, link?.variants ?? []);
  if (password !== undefined && (password !== null || link?.password_protected === true)) {
    body['password'] = password;
  }
  put('max_clicks', maxClicks, link?.max_clicks ?? null);
  put('fallback_url', fallbackUrl, link?.fallback_url ?? null);
  put('forward_query', forwardQuery, link?.forward_query ?? false);
  if (Object.keys(utm).length > 0) body['utm'] = utm;
  return body;
}

/**
 * The API field paths the smart fields show errors under, for the rows in `form`: each
 * rule's destination, status and conditions (and `when` for a rule with none), each
 * variant's destination and weight, the lists as a whole, and the single fields.
 */
export function smartErrorFields(form: FormData): string[] {
  const fields = ['rules', 'variants', 'password', 'max_clicks', 'fallback_url', 'utm'];
  keysOf(form, 'rule').forEach((_, i) => {
    const rule = `rules[${i}]`;
    fields.push(`${rule}.destination`, `${rule}.status_code`, `${rule}.when`);
    for (const name of CONDITIONS) fields.push(`${rule}.when.${name}`);
  });
  keysOf(form, 'variant').forEach((_, i) => {
    fields.push(`variants[${i}].destination`, `variants[${i}].weight`);
  });
  for (const key of UTM_KEYS) fields.push(`utm.${key}`);
  return fields;
}

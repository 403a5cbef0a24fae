import { checkDestination } from '../../domain/destination-policy.js';
import {
  parseSmartInput,
  type CheckUrl,
  type SmartInput,
} from '../../domain/smart/parse-smart-input.js';
import { isPlain, NO_SMART_OPTIONS, type SmartOptions } from '../../domain/smart/smart-options.js';
import { applyUtm } from '../../domain/smart/utm.js';
import { hashLinkPassword } from './link-password.js';
import type { LinkServiceDeps } from './link-service-deps.js';

/** The names of a write's smart-link fields, as the API, the CLI and CSV spell them. */
export const SMART_FIELD_NAMES = [
  'rules',
  'variants',
  'password',
  'max_clicks',
  'fallback_url',
  'forward_query',
  'utm',
] as const;

/**
 * A write's smart-link fields as the API spells them (issue 21), not yet checked: the
 * API, the CLI and CSV imports all hand them here, so one parser names every bad field.
 */
export type SmartFields = Readonly<Partial<Record<(typeof SMART_FIELD_NAMES)[number], unknown>>>;

/** The smart fields present in a body; undefined when it has none. */
export function smartFieldsOf(body: SmartFields): SmartFields | undefined {
  let fields: Partial<Record<(typeof SMART_FIELD_NAMES)[number], unknown>> | undefined;
  for (const name of SMART_FIELD_NAMES) {
    if (body[name] === undefined) continue;
    fields ??= {};
    fields[name] = body[name];
  }
  return fields;
}

/** Checked smart fields, ready to be applied to a link (`applySmartInput`). */
export function checkSmartFields(fields: SmartFields, deps: LinkServiceDeps): SmartInput {
  const checkUrl: CheckUrl = (url) => {
    const verdict = checkDestination(url, deps.destinationPolicy);
    return verdict.ok ? { ok: true, url: verdict.destination } : verdict;
  };
  return parseSmartInput(fields, checkUrl);
}

/** The hash of the write's new password (never stored in clear), or null when it sets none. */
export async function newPasswordHash(input: SmartInput | undefined): Promise<string | null> {
  return typeof input?.password === 'string' ? hashLinkPassword(input.password) : null;
}

/**
 * The link's options after a write: each field given replaces the current one (the
 * password by `passwordHash`, from `newPasswordHash`), and options that ask for nothing
 * make a plain link. Synchronous, so a compare-and-set may run it again.
 */
export function applySmartInput(
  current: SmartOptions | null,
  input: SmartInput,
  passwordHash: string | null,
): SmartOptions | null {
  const base = current ?? NO_SMART_OPTIONS;
  const next: SmartOptions = {
    rules: input.rules ?? base.rules,
    variants: input.variants ?? base.variants,
    passwordHash: input.password === undefined ? base.passwordHash : passwordHash,
    maxClicks: input.maxClicks === undefined ? base.maxClicks : input.maxClicks,
    fallbackUrl: input.fallbackUrl === undefined ? base.fallbackUrl : input.fallbackUrl,
    forwardQuery: input.forwardQuery ?? base.forwardQuery,
  };
  return isPlain(next) ? null : next;
}

/** The destination with the write's utm fields set (issue 21: when the link is written). */
export function destinationWithUtm(destination: string, input: SmartInput | undefined): string {
  return input?.utm === undefined ? destination : applyUtm(destination, input.utm);
}

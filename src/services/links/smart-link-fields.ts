import { applySmartInput } from '../../domain/smart/apply-smart-input.js';
import {
  checkUrlByPolicy,
  parseSmartInput,
  type SmartInput,
} from '../../domain/smart/parse-smart-input.js';
import { isPlain, NO_SMART_OPTIONS, type SmartOptions } from '../../domain/smart/smart-options.js';
import { applyUtm } from '../../domain/smart/utm.js';
import { checkDestinationOrThrow } from './check-destination-or-throw.js';
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

/** Checked smart fields, ready to be applied to a link (`smartOptionsAfter`). */
export function checkSmartFields(fields: SmartFields, deps: LinkServiceDeps): SmartInput {
  return parseSmartInput(fields, checkUrlByPolicy(deps.destinationPolicy));
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
export function smartOptionsAfter(
  current: SmartOptions | null,
  input: SmartInput,
  passwordHash: string | null,
): SmartOptions | null {
  const next = applySmartInput(
    current ?? NO_SMART_OPTIONS,
    input,
    input.password === undefined ? undefined : passwordHash,
  );
  return isPlain(next) ? null : next;
}

/** The destination with the write's utm fields set (issue 21: when the link is written). */
export function destinationWithUtm(
  destination: string,
  input: SmartInput | undefined,
  deps: LinkServiceDeps,
): string {
  if (input?.utm === undefined) return destination;
  // The parameters may take it past HOP_MAX_URL_LENGTH: the policy judges the result.
  return checkDestinationOrThrow(applyUtm(destination, input.utm), deps.destinationPolicy);
}

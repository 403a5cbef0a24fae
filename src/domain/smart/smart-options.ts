import type { RedirectStatus } from '../link.js';

/**
 * What a smart link does beyond sending everyone to its destination (issue 21): rules,
 * variants, a password, a click limit, a fallback and query forwarding. A plain link has
 * none of it (`Link.smart === null`) and its redirect pays nothing for the feature.
 */

export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type RuleDevice = (typeof DEVICES)[number];
export const OPERATING_SYSTEMS = [
  'ios',
  'android',
  'windows',
  'macos',
  'linux',
  'chromeos',
] as const;
export type RuleOs = (typeof OPERATING_SYSTEMS)[number];
export const BROWSERS = ['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung'] as const;
export type RuleBrowser = (typeof BROWSERS)[number];

export const MAX_RULES = 20;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 10;
export const MIN_VARIANT_WEIGHT = 1;
export const MAX_VARIANT_WEIGHT = 100;
export const MIN_PASSWORD_LENGTH = 4;
export const MAX_PASSWORD_LENGTH = 128;

/**
 * A rule's conditions: every condition given must hold; a list holds when any of its
 * values matches. Absent conditions are not checked. Stored as validated, normalised
 * values (lower-case languages, upper-case countries, instants in epoch ms).
 */
export interface RuleConditions {
  readonly device?: readonly RuleDevice[];
  readonly os?: readonly RuleOs[];
  readonly browser?: readonly RuleBrowser[];
  /** Lower-case language tags (`de`, `pt-br`); `de` matches `de-at`. */
  readonly language?: readonly string[];
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country?: readonly string[];
  /** Parameter name → the value it must have, or true for present with any value. */
  readonly query?: Readonly<Record<string, string | true>>;
  /** Addresses or CIDRs, IPv4 or IPv6, as given (normalised). */
  readonly ip?: readonly string[];
  /** Epoch ms: the rule holds from this instant on (inclusive). */
  readonly after?: number;
  /** Epoch ms: the rule holds before this instant (exclusive). */
  readonly before?: number;
}

export interface LinkRule {
  readonly destination: string;
  /** Null: the link's own status code. */
  readonly statusCode: RedirectStatus | null;
  readonly when: RuleConditions;
}

export interface LinkVariant {
  readonly destination: string;
  /** 1–100. */
  readonly weight: number;
}

export interface SmartOptions {
  /** Tried in order; the first whose conditions all hold wins. */
  readonly rules: readonly LinkRule[];
  /** Empty, or 2–10 destinations drawn by weight when no rule matches. */
  readonly variants: readonly LinkVariant[];
  /** The password's hash (never the password), or null. */
  readonly passwordHash: string | null;
  /** At most this many redirects are ever served, or null for no limit. */
  readonly maxClicks: number | null;
  /** Where an expired or click-exhausted link sends visitors, or null for the 404. */
  readonly fallbackUrl: string | null;
  /** Adds the visitor's query string to the chosen destination. */
  readonly forwardQuery: boolean;
}

/** True when the options ask for nothing: such a link is stored and served as plain. */
export function isPlain(options: SmartOptions): boolean {
  return (
    options.rules.length === 0 &&
    options.variants.length === 0 &&
    options.passwordHash === null &&
    options.maxClicks === null &&
    options.fallbackUrl === null &&
    !options.forwardQuery
  );
}

export const NO_SMART_OPTIONS: SmartOptions = Object.freeze({
  rules: [],
  variants: [],
  passwordHash: null,
  maxClicks: null,
  fallbackUrl: null,
  forwardQuery: false,
});

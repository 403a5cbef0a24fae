import type { RedirectStatus } from '../link.js';
import type { LinkRule, RuleConditions, SmartOptions } from './smart-options.js';

/**
 * The smart-link fields of the link JSON (issue 21), snake_case as the API writes them.
 * Read back through parseSmartInput they give the same options (ADR 0108): `when` keys in
 * one order, instants as ISO 8601 UTC, `status_code` only when the rule sets one. The
 * password never leaves: only whether there is one.
 */
export interface SmartOptionsJson {
  readonly rules: readonly RuleJson[];
  readonly variants: readonly { readonly destination: string; readonly weight: number }[];
  readonly max_clicks: number | null;
  readonly fallback_url: string | null;
  readonly forward_query: boolean;
  readonly password_protected: boolean;
}

export interface RuleJson {
  readonly destination: string;
  readonly status_code?: RedirectStatus;
  readonly when: RuleConditionsJson;
}

export interface RuleConditionsJson {
  readonly device?: readonly string[];
  readonly os?: readonly string[];
  readonly browser?: readonly string[];
  readonly language?: readonly string[];
  readonly country?: readonly string[];
  readonly query?: Readonly<Record<string, string | true>>;
  readonly ip?: readonly string[];
  readonly after?: string;
  readonly before?: string;
}

export function smartOptionsJson(options: SmartOptions): SmartOptionsJson {
  return {
    rules: options.rules.map(ruleJson),
    variants: options.variants.map(({ destination, weight }) => ({ destination, weight })),
    max_clicks: options.maxClicks,
    fallback_url: options.fallbackUrl,
    forward_query: options.forwardQuery,
    password_protected: options.passwordHash !== null,
  };
}

function ruleJson(rule: LinkRule): RuleJson {
  const when = conditionsJson(rule.when);
  return rule.statusCode === null
    ? { destination: rule.destination, when }
    : { destination: rule.destination, status_code: rule.statusCode, when };
}

function conditionsJson(when: RuleConditions): RuleConditionsJson {
  const json: { -readonly [K in keyof RuleConditionsJson]: RuleConditionsJson[K] } = {};
  if (when.device !== undefined) json.device = [...when.device];
  if (when.os !== undefined) json.os = [...when.os];
  if (when.browser !== undefined) json.browser = [...when.browser];
  if (when.language !== undefined) json.language = [...when.language];
  if (when.country !== undefined) json.country = [...when.country];
  if (when.query !== undefined) json.query = Object.fromEntries(Object.entries(when.query));
  if (when.ip !== undefined) json.ip = [...when.ip];
  if (when.after !== undefined) json.after = new Date(when.after).toISOString();
  if (when.before !== undefined) json.before = new Date(when.before).toISOString();
  return json;
}

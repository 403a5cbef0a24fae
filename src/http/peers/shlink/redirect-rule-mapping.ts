import type { LinkRule, RuleConditions } from '../../../domain/smart/smart-options.js';
import { atomDate } from './shlink-json.js';
import { invalidData } from './shlink-problem.js';

/** A Shlink redirect condition (`RedirectCondition::jsonSerialize`). */
export interface ShlinkCondition {
  readonly type: string;
  readonly matchKey: string | null;
  readonly matchValue: string;
}

/** A hop rule as the API writes it: `rules[i]` of a PATCH (issue 21). */
export interface HopRuleInput {
  readonly destination: string;
  readonly when: Record<string, unknown>;
}

/** Shlink's devices as hop's device classes or operating systems. */
const DEVICE_AS_OS = new Set(['android', 'ios', 'windows', 'macos', 'linux', 'chromeos']);
const BROWSER_AS_HOP: Readonly<Record<string, string>> = {
  chrome: 'chrome',
  firefox: 'firefox',
  edge: 'edge',
  safari: 'safari',
  opera: 'opera',
};
/** Shlink's `mobile` is any handheld: hop's phones and tablets together. */
const MOBILE = ['mobile', 'tablet'];
/** More Shlink rules than this for one hop rule (its lists multiplied out) is refused. */
const MAX_EXPANDED_RULES = 100;
/** Shlink's wildcard address patterns, whole trailing octets only (`11.22.*.*`). */
const IPV4_WILDCARD = /^(\d{1,3})(?:\.(\d{1,3}|\*)){3}$/;

function refuse(detail: string): never {
  throw invalidData(['redirectRules'], detail);
}

/**
 * Shlink's rules as hop's. A Shlink rule holds when all its conditions hold, as a hop rule
 * does; a hop condition's list holds when any value matches, so two Shlink conditions of
 * one kind in a rule (both must hold) cannot become one list and are refused, as is any
 * condition hop has no equivalent for (a city, Android's own browser, an IP wildcard that
 * is no CIDR).
 */
export function hopRulesOf(body: unknown): HopRuleInput[] {
  const rules = (body as { redirectRules?: unknown } | undefined)?.redirectRules;
  if (!Array.isArray(rules)) refuse('redirectRules must be a list of rules.');
  return rules.map((rule: unknown, index) => {
    const { longUrl, conditions } = (rule ?? {}) as { longUrl?: unknown; conditions?: unknown };
    if (typeof longUrl !== 'string' || longUrl === '') refuse(`Rule ${index + 1} needs a longUrl.`);
    if (!Array.isArray(conditions) || conditions.length === 0) {
      refuse(`Rule ${index + 1} needs at least one condition.`);
    }
    const when: Record<string, unknown> = {};
    const setOnce = (key: string, value: unknown) => {
      if (when[key] !== undefined && JSON.stringify(when[key]) !== JSON.stringify(value)) {
        refuse(`Rule ${index + 1} asks two ${key} conditions at once; hop cannot require both.`);
      }
      when[key] = value;
    };
    const query: Record<string, string | true> = {};
    for (const raw of conditions as unknown[]) {
      const { type, matchKey, matchValue } = (raw ?? {}) as Record<string, unknown>;
      const value = typeof matchValue === 'string' ? matchValue : '';
      const key = typeof matchKey === 'string' ? matchKey : '';
      switch (type) {
        case 'device': {
          const device = value.toLowerCase();
          if (DEVICE_AS_OS.has(device)) setOnce('os', [device]);
          else if (device === 'mobile') setOnce('device', MOBILE);
          else if (device === 'desktop') setOnce('device', ['desktop']);
          else refuse(`"${value}" is no device Shlink or hop knows.`);
          break;
        }
        case 'browser': {
          const browser = BROWSER_AS_HOP[value.toLowerCase()];
          if (browser === undefined) refuse(`hop does not tell the browser "${value}" apart.`);
          setOnce('browser', [browser]);
          break;
        }
        case 'language':
          setOnce('language', [value.replaceAll('_', '-')]);
          break;
        case 'geolocation-country-code':
          setOnce('country', [value]);
          break;
        case 'ip-address':
          setOnce('ip', [cidrOf(value)]);
          break;
        case 'query-param':
        case 'any-value-query-param':
        case 'valueless-query-param': {
          // Shlink names the parameter in matchKey for query-param, in matchValue otherwise.
          const name = type === 'query-param' ? key : value || key;
          const expected =
            type === 'query-param' ? value : type === 'any-value-query-param' ? true : '';
          if (name === '') refuse(`A ${type} condition names no parameter.`);
          if (query[name] !== undefined && query[name] !== expected) {
            refuse(`Rule ${index + 1} asks the parameter "${name}" two ways at once.`);
          }
          query[name] = expected;
          break;
        }
        case 'before-date':
        case 'after-date': {
          const at = Date.parse(value);
          if (Number.isNaN(at)) refuse(`"${value}" is no date.`);
          setOnce(type === 'before-date' ? 'before' : 'after', new Date(at).toISOString());
          break;
        }
        default:
          refuse(
            typeof type === 'string'
              ? `hop has no equivalent of the condition "${type}".`
              : `Each condition of rule ${index + 1} needs a type.`,
          );
      }
    }
    if (Object.keys(query).length > 0) when['query'] = query;
    return { destination: longUrl, when };
  });
}

/** An address, CIDR or whole-octet IPv4 wildcard as hop's CIDR. */
function cidrOf(pattern: string): string {
  if (!pattern.includes('*')) return pattern;
  const match = IPV4_WILDCARD.exec(pattern);
  const octets = pattern.split('.');
  const fixed = octets.findIndex((octet) => octet === '*');
  if (match === null || octets.slice(fixed).some((octet) => octet !== '*')) {
    refuse(`hop matches addresses by CIDR; "${pattern}" is no whole-octet wildcard.`);
  }
  const base = octets.map((octet) => (octet === '*' ? '0' : octet)).join('.');
  return `${base}/${fixed * 8}`;
}

/**
 * hop's rules as Shlink's: each list multiplied out into rules of one value per condition
 * (a hop rule for DE or AT is two Shlink rules, in its place in the order). A condition
 * Shlink cannot say (a tablet alone, Samsung's browser, ...) is refused rather than shown
 * as something it is not: a client writing the rules back would change them.
 */
export function shlinkRulesOf(rules: readonly LinkRule[]) {
  const out: { longUrl: string; priority: number; conditions: ShlinkCondition[] }[] = [];
  for (const rule of rules) {
    for (const conditions of expand(alternativesOf(rule.when))) {
      out.push({ longUrl: rule.destination, priority: out.length + 1, conditions });
      if (out.length > MAX_EXPANDED_RULES)
        refuse('These rules are too many for Shlink; read them through /v1.');
    }
  }
  return out;
}

/** For each condition of a hop rule, the Shlink conditions any one of which holds. */
function alternativesOf(when: RuleConditions): ShlinkCondition[][] {
  const groups: ShlinkCondition[][] = [];
  const one = (type: string, matchValue: string, matchKey: string | null = null) => ({
    type,
    matchKey,
    matchValue,
  });
  if (when.device !== undefined) {
    const devices = new Set<string>(when.device);
    const values: string[] = [];
    if (devices.has('mobile') && devices.has('tablet')) values.push('mobile');
    else if (devices.has('mobile') || devices.has('tablet')) {
      refuse('A rule for phones or tablets alone has no Shlink equivalent; read it through /v1.');
    }
    if (devices.has('desktop')) values.push('desktop');
    groups.push(values.map((value) => one('device', value)));
  }
  if (when.os !== undefined) groups.push(when.os.map((os) => one('device', os)));
  if (when.browser !== undefined) {
    if (when.browser.includes('samsung'))
      refuse('Shlink has no condition for Samsung Internet; read it through /v1.');
    groups.push(when.browser.map((browser) => one('browser', browser)));
  }
  if (when.language !== undefined) groups.push(when.language.map((tag) => one('language', tag)));
  if (when.country !== undefined)
    groups.push(when.country.map((code) => one('geolocation-country-code', code)));
  if (when.ip !== undefined) groups.push(when.ip.map((ip) => one('ip-address', ip)));
  for (const [name, expected] of Object.entries(when.query ?? {})) {
    groups.push([
      expected === true
        ? one('any-value-query-param', name)
        : expected === ''
          ? one('valueless-query-param', name)
          : one('query-param', expected, name),
    ]);
  }
  if (when.after !== undefined) groups.push([one('after-date', atomDate(when.after))]);
  if (when.before !== undefined) groups.push([one('before-date', atomDate(when.before))]);
  return groups;
}

/** Every choice of one condition per group. */
function expand(groups: readonly ShlinkCondition[][]): ShlinkCondition[][] {
  let combos: ShlinkCondition[][] = [[]];
  for (const group of groups) {
    combos = combos.flatMap((combo) => group.map((condition) => [...combo, condition]));
    if (combos.length > MAX_EXPANDED_RULES)
      refuse('These rules are too many for Shlink; read them through /v1.');
  }
  return combos;
}

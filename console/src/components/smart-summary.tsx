import { UTM_KEYS, type Link, type Rule } from '../api.js';
import { dateTime } from '../format.js';
import { shares } from './variants-editor.js';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A link's smart settings in a line: "2 rules, 2 variants, password protected, limit 10
 * clicks, …"; '' for a plain link. The clicks left are not in the API, so only the limit is.
 */
export function smartSummary(link: Link): string {
  const parts: string[] = [];
  if (link.rules.length > 0) parts.push(plural(link.rules.length, 'rule'));
  if (link.variants.length > 0) parts.push(plural(link.variants.length, 'variant'));
  if (link.password_protected) parts.push('password protected');
  if (link.max_clicks !== null) parts.push(`limit ${plural(link.max_clicks, 'click')}`);
  if (link.fallback_url !== null) parts.push('fallback set');
  if (link.forward_query) parts.push('forwards the query');
  return parts.join(', ');
}

/** What a rule asks, in words: "country DE, device mobile or tablet". */
export function ruleConditions(rule: Rule): string {
  const { when } = rule;
  const parts: string[] = [];
  const list = (name: string, values: readonly string[] | undefined) => {
    if (values !== undefined) parts.push(`${name} ${values.join(' or ')}`);
  };
  list('device', when.device);
  list('OS', when.os);
  list('browser', when.browser);
  list('language', when.language);
  list('country', when.country);
  if (when.query !== undefined) {
    const pairs = Object.entries(when.query).map(([k, v]) => (v === true ? k : `${k}=${v}`));
    parts.push(`query ${pairs.join(' and ')}`);
  }
  list('IP', when.ip);
  if (when.after !== undefined) parts.push(`from ${dateTime(when.after)}`);
  if (when.before !== undefined) parts.push(`until ${dateTime(when.before)}`);
  return parts.join(', ');
}

/** The smart settings among a link's details (a `dl`'s rows); nothing for a plain link. */
export function SmartDetails({ link }: { link: Link }) {
  const summary = smartSummary(link);
  const utm = UTM_KEYS.filter((key) => link.utm[key] !== undefined);
  const variantShares = shares(link.variants.map((variant) => variant.weight));
  return (
    <>
      {summary !== '' && (
        <>
          <dt>Smart link</dt>
          <dd data-testid="smart-summary">{summary}</dd>
        </>
      )}
      {link.rules.length > 0 && (
        <>
          <dt>Rules</dt>
          <dd>
            <ol class="smart-list" data-testid="smart-rules">
              {link.rules.map((rule, i) => (
                <li key={i}>
                  {ruleConditions(rule)} → <span class="destination">{rule.destination}</span>
                  {rule.status_code !== undefined && ` (${rule.status_code})`}
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
      {link.variants.length > 0 && (
        <>
          <dt>Variants</dt>
          <dd>
            <ul class="smart-list" data-testid="smart-variants">
              {link.variants.map((variant, i) => (
                <li key={i}>
                  {variantShares[i]} → <span class="destination">{variant.destination}</span>
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {link.max_clicks !== null && (
        <>
          <dt>Click limit</dt>
          <dd data-testid="smart-limit">{link.max_clicks}</dd>
        </>
      )}
      {link.fallback_url !== null && (
        <>
          <dt>Fallback</dt>
          <dd class="destination">{link.fallback_url}</dd>
        </>
      )}
      {utm.length > 0 && (
        <>
          <dt>UTM</dt>
          <dd>{utm.map((key) => `${key}=${link.utm[key] ?? ''}`).join(', ')}</dd>
        </>
      )}
    </>
  );
}

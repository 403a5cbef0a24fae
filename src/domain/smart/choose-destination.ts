import type { RedirectStatus } from '../link.js';
import { compileRules, firstMatchingRule, type CompiledRules } from './compile-rules.js';
import { forwardQuery } from './forward-query.js';
import type { LinkRule, SmartOptions } from './smart-options.js';
import {
  compileVariants,
  cookieValueOf,
  drawVariant,
  stickyVariant,
  variantCookieName,
  variantCookieValue,
  type VariantDraw,
} from './variants.js';
import type { Visitor } from './visitor.js';

/**
 * Where a smart link sends one visitor, once the password and the click limit have let
 * them through (issue 21: rules, then variants, then forwarding). Pure: the redirect
 * reads the `Cookie` header and the random source and writes any `Set-Cookie`.
 */
export interface CompiledSmartLink {
  readonly rules: readonly LinkRule[];
  readonly compiledRules: CompiledRules;
  readonly variants: readonly { readonly destination: string }[];
  /** Null when the link has no variants. */
  readonly variantDraw: VariantDraw | null;
  readonly variantCookieName: string;
  readonly forwardQuery: boolean;
}

export interface SmartChoice {
  readonly destination: string;
  /** The matching rule's status, or null for the link's own. */
  readonly statusCode: RedirectStatus | null;
  /** A cookie value to set under `variantCookieName` when a variant was freshly drawn. */
  readonly variantCookie: string | null;
}

/** Once per cache fill. */
export function compileSmartLink(linkId: string, options: SmartOptions): CompiledSmartLink {
  return {
    rules: options.rules,
    compiledRules: compileRules(options.rules),
    variants: options.variants,
    variantDraw: options.variants.length === 0 ? null : compileVariants(options.variants),
    variantCookieName: variantCookieName(linkId),
    forwardQuery: options.forwardQuery,
  };
}

/**
 * The first matching rule's destination; else the visitor's sticky variant, or a fresh
 * draw (which asks for a cookie); else the link's own destination. Forwarding applies to
 * whichever was chosen.
 */
export function chooseDestination(
  link: CompiledSmartLink,
  ownDestination: string,
  visitor: Visitor,
  cookieHeader: () => string | undefined,
  random: () => number,
): SmartChoice {
  let destination = ownDestination;
  let statusCode: RedirectStatus | null = null;
  let variantCookie: string | null = null;
  const ruleIndex = firstMatchingRule(link.compiledRules, visitor);
  const rule = ruleIndex < 0 ? undefined : link.rules[ruleIndex];
  if (rule !== undefined) {
    destination = rule.destination;
    statusCode = rule.statusCode;
  } else if (link.variantDraw !== null) {
    const draw = link.variantDraw;
    let index = stickyVariant(draw, cookieValueOf(cookieHeader(), link.variantCookieName));
    if (index < 0) {
      index = drawVariant(draw, random);
      variantCookie = variantCookieValue(draw, index);
    }
    destination = link.variants[index]?.destination ?? ownDestination;
  }
  if (link.forwardQuery) destination = forwardQuery(destination, visitor.query());
  return { destination, statusCode, variantCookie };
}

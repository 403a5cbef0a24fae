import {
  acceptedLanguagesOf,
  isLanguageAccepted,
  type AcceptedLanguages,
} from './accepted-languages.js';
import { agentClassOf, browserBit, deviceBit, osBit, type AgentClass } from './agent-class.js';
import {
  compileIpRanges,
  isAddressInRanges,
  parseVisitorAddress,
  type VisitorAddress,
  type IpRanges,
} from './ip-ranges.js';
import { BoundedMemo } from '../bounded-memo.js';
import type { LinkRule, RuleConditions } from './smart-options.js';
import type { Visitor } from './visitor.js';

/**
 * A link's rules made ready for the redirect (issue 21, ADR 0108): built once per cache
 * fill, so a request parses no CIDR, date or list. Every field is always present (one
 * object shape for V8); an absent condition is the value that always holds (mask 0,
 * null, ±Infinity).
 */
export interface CompiledRule {
  readonly after: number;
  readonly before: number;
  /** Upper-case codes, or null. */
  readonly countries: ReadonlySet<string> | null;
  /** Name → the value it must have, or null for present with any value. */
  readonly query: readonly QueryExpectation[] | null;
  readonly languages: readonly string[] | null;
  readonly ip: IpRanges | null;
  /** Bits of AgentClass; 0 when the rule does not look at that part of the agent. */
  readonly deviceMask: number;
  readonly osMask: number;
  readonly browserMask: number;
}

export interface QueryExpectation {
  readonly name: string;
  readonly value: string | null;
}

export type CompiledRules = readonly CompiledRule[];

/** Distinct condition lists kept compiled (BoundedMemo: forgotten all at once when full). */
const MAX_SHARED_CONDITION_LISTS = 10_000;

/** Conditions compiled from their JSON (plain values: it holds them exactly). */
const SHARED_CONDITION_LISTS = new BoundedMemo(
  (conditions: string): CompiledRules =>
    (JSON.parse(conditions) as RuleConditions[]).map(compileConditions),
  MAX_SHARED_CONDITION_LISTS,
);

/**
 * The rules' conditions compiled, shared by every link whose conditions are the same
 * (ADR 0146): links made from one template (a campaign's, a bulk import's) differ in their
 * destinations, which are not compiled, and a redirect then reads conditions that other
 * links' redirects keep in the CPU's caches. Keyed by the conditions' JSON, once per fill.
 */
export function compileRules(rules: readonly LinkRule[]): CompiledRules {
  return SHARED_CONDITION_LISTS.resolve(JSON.stringify(rules.map((rule) => rule.when)));
}

function compileConditions(when: RuleConditions): CompiledRule {
  return {
    after: when.after ?? -Infinity,
    before: when.before ?? Infinity,
    countries: when.country === undefined ? null : new Set(when.country),
    query:
      when.query === undefined
        ? null
        : Object.entries(when.query).map(([name, value]) => ({
            name,
            value: value === true ? null : value,
          })),
    languages: when.language ?? null,
    ip: when.ip === undefined ? null : compileIpRanges(when.ip),
    deviceMask: maskOf(when.device, deviceBit),
    osMask: maskOf(when.os, osBit),
    browserMask: maskOf(when.browser, browserBit),
  };
}

function maskOf<T>(values: readonly T[] | undefined, bit: (value: T) => number): number {
  let mask = 0;
  for (const value of values ?? []) mask |= bit(value);
  return mask;
}

/**
 * The index of the first rule whose conditions all hold for this visitor, or -1. Each of
 * the visitor's answers is read and parsed at most once, and only when a rule needs it.
 */
export function firstMatchingRule(rules: CompiledRules, visitor: Visitor): number {
  const facts = FACTS.reset(visitor);
  try {
    for (let index = 0; index < rules.length; index++) {
      if (holds(rules[index] as CompiledRule, facts)) return index;
    }
    return -1;
  } finally {
    facts.release();
  }
}

/** Cheapest conditions first; all must hold, so the order changes only the cost. */
function holds(rule: CompiledRule, facts: VisitorFacts): boolean {
  const now = facts.now;
  if (now < rule.after || now >= rule.before) return false;
  if (rule.countries !== null) {
    const country = facts.country();
    if (country === null || !rule.countries.has(country)) return false;
  }
  if (rule.query !== null && !holdsQuery(rule.query, facts.query())) return false;
  if (rule.languages !== null && !holdsLanguage(rule.languages, facts.languages())) return false;
  if (rule.ip !== null) {
    const address = facts.address();
    if (address === null || !isAddressInRanges(address, rule.ip)) return false;
  }
  if ((rule.deviceMask | rule.osMask | rule.browserMask) !== 0) {
    const agent = facts.agent();
    if (rule.deviceMask !== 0 && (agent & rule.deviceMask) === 0) return false;
    if (rule.osMask !== 0 && (agent & rule.osMask) === 0) return false;
    if (rule.browserMask !== 0 && (agent & rule.browserMask) === 0) return false;
  }
  return true;
}

function holdsQuery(expected: readonly QueryExpectation[], params: URLSearchParams): boolean {
  for (const { name, value } of expected) {
    if (value === null ? !params.has(name) : !params.has(name, value)) return false;
  }
  return true;
}

function holdsLanguage(ruleTags: readonly string[], accepted: AcceptedLanguages): boolean {
  for (const tag of ruleTags) if (isLanguageAccepted(tag, accepted)) return true;
  return false;
}

const COUNTRY = /^[A-Za-z]{2}$/;
const NOT_READ = Symbol('not read');
const EMPTY_QUERY = new URLSearchParams();

/**
 * The visitor's answers, each parsed on first use. Matching is synchronous, so one
 * instance per process serves every request: `reset` forgets the previous visitor and no
 * request allocates one.
 */
class VisitorFacts {
  #visitor: Visitor | null = null;
  #country: string | null | typeof NOT_READ = NOT_READ;
  #query: URLSearchParams | typeof NOT_READ = NOT_READ;
  #languages: AcceptedLanguages | typeof NOT_READ = NOT_READ;
  #address: VisitorAddress | null | typeof NOT_READ = NOT_READ;
  #agent: AgentClass | typeof NOT_READ = NOT_READ;
  now = 0;

  reset(visitor: Visitor): this {
    this.#visitor = visitor;
    this.now = visitor.now;
    this.#country = NOT_READ;
    this.#query = NOT_READ;
    this.#languages = NOT_READ;
    this.#address = NOT_READ;
    this.#agent = NOT_READ;
    return this;
  }

  /** Lets go of the request: nothing of it outlives its match. */
  release(): void {
    this.#visitor = null;
    this.#query = NOT_READ;
    this.#address = NOT_READ;
  }

  /** Upper case, or null when unknown (absent, not two letters: an edge's XX or T1). */
  country(): string | null {
    if (this.#country === NOT_READ) {
      const raw = this.#requireVisitor().country();
      this.#country = raw !== undefined && COUNTRY.test(raw) ? raw.toUpperCase() : null;
    }
    return this.#country;
  }

  query(): URLSearchParams {
    if (this.#query === NOT_READ) {
      const raw = this.#requireVisitor().query();
      this.#query = raw === '' ? EMPTY_QUERY : new URLSearchParams(raw);
    }
    return this.#query;
  }

  languages(): AcceptedLanguages {
    if (this.#languages === NOT_READ) {
      this.#languages = acceptedLanguagesOf(this.#requireVisitor().acceptLanguage());
    }
    return this.#languages;
  }

  address(): VisitorAddress | null {
    if (this.#address === NOT_READ) {
      this.#address = parseVisitorAddress(this.#requireVisitor().address());
    }
    return this.#address;
  }

  agent(): AgentClass {
    if (this.#agent === NOT_READ) this.#agent = agentClassOf(this.#requireVisitor().userAgent());
    return this.#agent;
  }

  #requireVisitor(): Visitor {
    if (this.#visitor === null) throw new Error('VisitorFacts read before reset');
    return this.#visitor;
  }
}

const FACTS = new VisitorFacts();

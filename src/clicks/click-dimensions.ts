import Bowser from 'bowser';
import { isbot } from 'isbot';
import {
  boundCountry,
  NO_REFERRER,
  referrerHostOf,
  UNKNOWN_COUNTRY,
  type AgentClass,
  type BrowserClass,
  type DeviceClass,
  type OsClass,
} from '../domain/click-event.js';
import type { GeoLookup, GeoPlace } from '../ports/geo-lookup.js';
import { BROWSER_BY_BOWSER_NAME, OS_BY_BOWSER_NAME } from '../domain/smart/agent-class.js';
import { BoundedMemo } from './bounded-memo.js';
import { NO_LANGUAGE, primaryLanguageOf } from '../domain/accept-language.js';

/** Distinct user agents, referrers and country values remembered each. */
const MAX_REMEMBERED = 10_000;
/** Longer user agents are not parsed: `other`. */
const MAX_AGENT_LENGTH = 512;

/**
 * Raw header values → the bounded dimensions of SPEC §6. The redirect only asks whether an
 * answer is known (a map lookup) and keeps the canonical value, so a buffered click holds
 * no string of its request; a value seen for the first time is parsed by the flusher.
 * A client's address is never remembered here: the flusher looks it up in `geo` and lets
 * go of it (ADR 0109).
 */
export class ClickDimensions {
  readonly #agents = new BoundedMemo(classifyAgent, MAX_REMEMBERED);
  readonly #referrers = new BoundedMemo(referrerHostOf, MAX_REMEMBERED);
  readonly #countries = new BoundedMemo(boundCountry, MAX_REMEMBERED);
  readonly #languages = new BoundedMemo(primaryLanguageOf, MAX_REMEMBERED);
  readonly #geo: GeoLookup | null;

  /** `geo`: where clicks without a country header are placed; null: they are ZZ. */
  constructor(geo: GeoLookup | null = null) {
    this.#geo = geo;
  }

  knownAgent(userAgent: string | undefined): AgentClass | undefined {
    return userAgent === undefined ? OTHER_AGENT : this.#agents.known(userAgent);
  }

  /** Device, browser and os of a user agent: one parse per distinct user agent. */
  agent(userAgent: string | undefined): AgentClass {
    return userAgent === undefined ? OTHER_AGENT : this.#agents.resolve(userAgent);
  }

  knownReferrer(referer: string | undefined): string | undefined {
    return referer === undefined ? NO_REFERRER : this.#referrers.known(referer);
  }

  referrer(referer: string | undefined): string {
    return referer === undefined ? NO_REFERRER : this.#referrers.resolve(referer);
  }

  knownCountry(raw: string | undefined): string | undefined {
    return raw === undefined ? UNKNOWN_COUNTRY : this.#countries.known(raw);
  }

  country(raw: string | undefined): string {
    return raw === undefined ? UNKNOWN_COUNTRY : this.#countries.resolve(raw);
  }

  /**
   * The language of an Accept-Language seen before, for the redirect (ADR 0152); undefined
   * when only parsing can tell, which the redirect never does (ADR 0125).
   */
  knownLanguage(raw: string | undefined): string | undefined {
    return raw === undefined ? NO_LANGUAGE : this.#languages.known(raw);
  }

  /** Accept-Language's primary subtag, parsed at the flush: one parse per distinct header. */
  language(raw: string | undefined): string {
    return raw === undefined ? NO_LANGUAGE : this.#languages.resolve(raw);
  }

  /** Where a client's address is; null without a database, or when it cannot say. */
  place(address: string): GeoPlace | null {
    return this.#geo === null ? null : this.#geo.lookup(address);
  }
}

/**
 * One shared object per combination, so a buffered click holds a canonical answer and
 * ClickSums compares them by identity.
 */
const agentClasses = new Map<string, AgentClass>();

function agentClass(device: DeviceClass, browser: BrowserClass, os: OsClass): AgentClass {
  const key = `${device} ${browser} ${os}`;
  let known = agentClasses.get(key);
  if (known === undefined) {
    known = Object.freeze({ device, browser, os });
    agentClasses.set(key, known);
  }
  return known;
}

const OTHER_AGENT = agentClass('other', 'other', 'other');
const BOT_AGENT = agentClass('bot', 'other', 'other');

/** isbot for crawlers, then bowser (both maintained; ~30 µs a parse here). */
function classifyAgent(userAgent: string): AgentClass {
  if (userAgent === '' || userAgent.length > MAX_AGENT_LENGTH) return OTHER_AGENT;
  try {
    if (isbot(userAgent)) return BOT_AGENT;
    const parsed = Bowser.parse(userAgent);
    const type = parsed.platform.type;
    return agentClass(
      type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other',
      BROWSER_BY_BOWSER_NAME.get(parsed.browser.name ?? '') ?? 'other',
      OS_BY_BOWSER_NAME.get(parsed.os.name ?? '') ?? 'other',
    );
  } catch {
    // A parser's bug on a hostile user agent must not cost the batch: it is just `other`.
    return OTHER_AGENT;
  }
}

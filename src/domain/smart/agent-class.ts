import Bowser from 'bowser';
import { BoundedMemo } from '../bounded-memo.js';
import {
  BROWSERS,
  DEVICES,
  OPERATING_SYSTEMS,
  type RuleBrowser,
  type RuleDevice,
  type RuleOs,
} from './smart-options.js';

/**
 * A user agent's device, OS and browser as one number of bits (ADR 0108): one bit per
 * value a rule can name, so a rule's list is a mask and "any of its values matches" is
 * one `&`. Bowser costs ~30 µs a parse; the answer is memoised per process.
 */
export type AgentClass = number;

/** A user agent with none of the classes rules name (no agent, a bot, an unknown OS). */
export const NO_AGENT_CLASS: AgentClass = 0;

/** Distinct user agents remembered (as src/clicks/click-dimensions.ts does). */
const MAX_REMEMBERED_AGENTS = 10_000;
/** Longer user agents are not parsed: they are nothing rules name. */
const MAX_AGENT_LENGTH = 512;

const DEVICE_SHIFT = 0;
const OS_SHIFT = DEVICES.length;
const BROWSER_SHIFT = OS_SHIFT + OPERATING_SYSTEMS.length;

export function deviceBit(device: RuleDevice): number {
  return 1 << (DEVICE_SHIFT + DEVICES.indexOf(device));
}

export function osBit(os: RuleOs): number {
  return 1 << (OS_SHIFT + OPERATING_SYSTEMS.indexOf(os));
}

export function browserBit(browser: RuleBrowser): number {
  return 1 << (BROWSER_SHIFT + BROWSERS.indexOf(browser));
}

/** Bowser's names (node_modules/bowser/src/constants.js) → the names rules and click analytics use. */
export const OS_BY_BOWSER_NAME: ReadonlyMap<string, RuleOs> = new Map([
  ['iOS', 'ios'],
  ['Android', 'android'],
  ['Windows', 'windows'],
  ['macOS', 'macos'],
  ['Linux', 'linux'],
  ['Chrome OS', 'chromeos'],
]);

export const BROWSER_BY_BOWSER_NAME: ReadonlyMap<string, RuleBrowser> = new Map([
  ['Chrome', 'chrome'],
  ['Chromium', 'chrome'],
  ['Firefox', 'firefox'],
  ['Safari', 'safari'],
  ['Microsoft Edge', 'edge'],
  ['Opera', 'opera'],
  ['Samsung Internet for Android', 'samsung'],
]);

/** The classes of one user agent, parsed (uncached). */
export function classifyUserAgent(userAgent: string): AgentClass {
  if (userAgent === '' || userAgent.length > MAX_AGENT_LENGTH) return NO_AGENT_CLASS;
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(userAgent);
  } catch {
    // A parser's bug on a hostile user agent must not fail the redirect: no classes.
    return NO_AGENT_CLASS;
  }
  let bits = NO_AGENT_CLASS;
  const type = parsed.platform.type;
  if (type === 'mobile' || type === 'tablet' || type === 'desktop') bits |= deviceBit(type);
  const os = OS_BY_BOWSER_NAME.get(parsed.os.name ?? '');
  if (os !== undefined) bits |= osBit(os);
  const browser = BROWSER_BY_BOWSER_NAME.get(parsed.browser.name ?? '');
  if (browser !== undefined) bits |= browserBit(browser);
  return bits;
}

const AGENT_CLASSES = new BoundedMemo(classifyUserAgent, MAX_REMEMBERED_AGENTS);

/** The classes of a request's user agent, memoised per process; none when absent. */
export function agentClassOf(userAgent: string | undefined): AgentClass {
  return userAgent === undefined ? NO_AGENT_CLASS : AGENT_CLASSES.resolve(userAgent);
}

import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { DeviceClass } from '../domain/click-event.js';

/** Distinct user agents remembered; real traffic repeats a few hundred of them. */
const MAX_REMEMBERED_AGENTS = 10_000;
/** Longer user agents are not parsed (nor remembered): `other`. */
const MAX_AGENT_LENGTH = 512;

/**
 * User agent → device class (SPEC §6), with isbot for crawlers and bowser for the rest.
 * Parsing one costs ~30 µs here, so answers are remembered; the memory is bounded by
 * starting afresh when full (cheaper than an LRU for a set this small and this stable).
 */
export class DeviceClassifier {
  readonly #known = new Map<string, DeviceClass>();

  classify(userAgent: string | undefined): DeviceClass {
    if (userAgent === undefined || userAgent === '') return 'other';
    const known = this.#known.get(userAgent);
    if (known !== undefined) return known;
    if (userAgent.length > MAX_AGENT_LENGTH) return 'other';
    const device = classifyUncached(userAgent);
    if (this.#known.size >= MAX_REMEMBERED_AGENTS) this.#known.clear();
    this.#known.set(userAgent, device);
    return device;
  }
}

function classifyUncached(userAgent: string): DeviceClass {
  if (isbot(userAgent)) return 'bot';
  const type = Bowser.parse(userAgent).platform.type;
  return type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other';
}

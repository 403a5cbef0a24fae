import Bowser from 'bowser';
import { isbot } from 'isbot';
import {
  boundCountry,
  NO_REFERRER,
  referrerHostOf,
  UNKNOWN_COUNTRY,
  type DeviceClass,
} from '../domain/click-event.js';
import { BoundedMemo } from './bounded-memo.js';

/** Distinct user agents, referrers and country values remembered each. */
const MAX_REMEMBERED = 10_000;
/** Longer user agents are not parsed: `other`. */
const MAX_AGENT_LENGTH = 512;

/**
 * Raw header values → the bounded dimensions of SPEC §6. The redirect only asks whether an
 * answer is known (a map lookup) and keeps the canonical value, so a buffered click holds
 * no string of its request; a value seen for the first time is parsed by the flusher.
 */
export class ClickDimensions {
  readonly #devices = new BoundedMemo(classifyDevice, MAX_REMEMBERED);
  readonly #referrers = new BoundedMemo(referrerHostOf, MAX_REMEMBERED);
  readonly #countries = new BoundedMemo(boundCountry, MAX_REMEMBERED);

  knownDevice(userAgent: string | undefined): DeviceClass | undefined {
    return userAgent === undefined ? 'other' : this.#devices.known(userAgent);
  }

  device(userAgent: string | undefined): DeviceClass {
    return userAgent === undefined ? 'other' : this.#devices.resolve(userAgent);
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
}

/** isbot for crawlers, then bowser (both maintained; ~30 µs a parse here). */
function classifyDevice(userAgent: string): DeviceClass {
  if (userAgent === '' || userAgent.length > MAX_AGENT_LENGTH) return 'other';
  try {
    if (isbot(userAgent)) return 'bot';
    const type = Bowser.parse(userAgent).platform.type;
    return type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other';
  } catch {
    // A parser's bug on a hostile user agent must not cost the batch: it is just `other`.
    return 'other';
  }
}

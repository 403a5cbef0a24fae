import { BROWSERS, OPERATING_SYSTEMS } from './smart/smart-options.js';

/** SPEC §6: the device classes a click is counted under. */
export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet', 'bot', 'other'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/**
 * Crawlers and link unfurlers: redirected like anyone, but their clicks are counted apart
 * (`bot_clicks`), never in a link's `clicks` or the dashboard's totals (ADR 0094).
 */
export const BOT_DEVICE = 'bot' satisfies DeviceClass;

/**
 * Issue 21: browsers and operating systems, by the names link rules use, and `other` for
 * the rest (bots included).
 */
export const BROWSER_CLASSES = [...BROWSERS, 'other'] as const;
export type BrowserClass = (typeof BROWSER_CLASSES)[number];
export const OS_CLASSES = [...OPERATING_SYSTEMS, 'other'] as const;
export type OsClass = (typeof OS_CLASSES)[number];

/** What one user agent is counted as: parsed once, shared by every click it makes. */
export interface AgentClass {
  readonly device: DeviceClass;
  readonly browser: BrowserClass;
  readonly os: OsClass;
}

/** A click with no city: a country-only database, or an address it cannot place. */
export const NO_CITY = '';
/** Cities past the per-link, per-hour bound (ADR 0109). */
export const OTHER_CITY = 'other';

/** Country of a click we could not place (ISO 3166 user-assigned code). */
export const UNKNOWN_COUNTRY = 'ZZ';
/** A click that came with no referrer. */
export const NO_REFERRER = '';
/** Referrer hosts past the per-link, per-hour bound, and anything unreadable. */
export const OTHER_REFERRER = 'other';

/**
 * One counted redirect, as the pipeline carries it (SPEC §6). No IP, no referrer path or
 * query: only what the aggregates need. `instance` + `seq` is the event id: `instance` is
 * random per process start and `seq` counts that process's clicks from 0, so ids never
 * repeat and one process's events form runs that a few intervals can remember.
 */
export interface ClickEvent {
  readonly instance: string;
  readonly seq: number;
  readonly linkId: string;
  readonly code: string;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly country: string;
  readonly device: DeviceClass;
  readonly referrer: string;
  readonly browser: BrowserClass;
  readonly os: OsClass;
  /** '' when not known (NO_CITY). */
  readonly city: string;
  /** Accept-Language's primary subtag (issue 23); '' or absent when not known. */
  readonly language?: string;
}

/** `<instance>.<seq>`: the id a click travels under (JetStream message id). */
export function eventIdOf(event: Pick<ClickEvent, 'instance' | 'seq'>): string {
  return `${event.instance}.${event.seq}`;
}

const INSTANCE = /^[A-Za-z0-9_-]{1,64}$/;

/** A sequence number (or a count of them): a whole number from 0. */
export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Instance ids are made by hop; this says whether one could have been. */
export function isInstanceId(value: string): boolean {
  return INSTANCE.test(value);
}

const COUNTRY = /^[A-Z]{2}$/;

/** An ISO 3166-1 alpha-2 code as an edge sends it; anything else is `ZZ` (SPEC §6). */
export function boundCountry(raw: string | undefined): string {
  if (raw === undefined) return UNKNOWN_COUNTRY;
  const upper = raw.trim().toUpperCase();
  // Cloudflare sends XX for unknown and T1 for Tor: neither is a country.
  return COUNTRY.test(upper) && upper !== 'XX' ? upper : UNKNOWN_COUNTRY;
}

const HOST_LABELS =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A referrer reduced to its host, lower case, without port, user or path (SPEC §6: the
 * host only). No referrer → ''. Not an http(s) URL with a DNS host → `other`.
 */
export function referrerHostOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return NO_REFERRER;
  if (!URL.canParse(raw)) return OTHER_REFERRER;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return OTHER_REFERRER;
  const host = url.hostname.toLowerCase();
  return HOST_LABELS.test(host) && host !== OTHER_REFERRER ? host : OTHER_REFERRER;
}

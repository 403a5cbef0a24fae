import {
  BROWSER_CLASSES,
  DEVICE_CLASSES,
  isInstanceId,
  isSeq,
  NO_CITY,
  OS_CLASSES,
  type BrowserClass,
  type ClickEvent,
  type DeviceClass,
  type OsClass,
} from '../domain/click-event.js';
import type { ClickBucket } from '../domain/click-fold.js';
import type { ClickTally } from '../domain/click-tally.js';

/**
 * Click events on the wire (one JetStream message each), and tallies as the embedded queue
 * held them before the wire format (`click-tally-wire.ts`): JSON with short keys. Only
 * read now, so that rows an earlier hop queued still fold. Issue 21 added an event's
 * browser (`b`), os (`o`) and city (`y`): events an earlier hop published have none, and
 * count as `other`, `other` and no city.
 */
interface EventJson {
  i: string;
  s: number;
  l: string;
  c: string;
  a: number;
  n: string;
  d: string;
  r: string;
  b: string;
  o: string;
  y: string;
  /** Issue 23: Accept-Language's primary subtag (ADR 0125); absent before, or unknown. */
  g?: string;
}

export function encodeEvent(event: ClickEvent): string {
  const json: EventJson = {
    i: event.instance,
    s: event.seq,
    l: event.linkId,
    c: event.code,
    a: event.at,
    n: event.country,
    d: event.device,
    r: event.referrer,
    b: event.browser,
    o: event.os,
    y: event.city,
  };
  if (event.language !== undefined && event.language !== '') json.g = event.language;
  return JSON.stringify(json);
}

/** The event a message holds, or null for anything that is not one (never throws). */
export function decodeEvent(text: string): ClickEvent | null {
  return eventFromJson(parseOrNull(text));
}

/** A tally as an earlier hop queued it: `[linkId, hour, country, device, referrer, clicks]` rows. */
interface TallyJson {
  i: string;
  f: number;
  t: number;
  o: number;
  n: number;
  b: [string, number, string, string, string, number][];
}

/** The tally a queue row holds, or null when it is not one (never throws). */
export function decodeTally(text: string): ClickTally | null {
  const json = parseOrNull(text);
  if (typeof json !== 'object' || json === null) return null;
  const { i, f, t, o, n, b } = json as Partial<Record<keyof TallyJson, unknown>>;
  if (
    typeof i !== 'string' ||
    !isInstanceId(i) ||
    !isSeq(f) ||
    !isSeq(t) ||
    t < f ||
    typeof o !== 'number' ||
    typeof n !== 'number' ||
    !Array.isArray(b)
  ) {
    return null;
  }
  const buckets: ClickBucket[] = [];
  let clicks = 0;
  for (const row of b as unknown[]) {
    if (!Array.isArray(row) || row.length !== 6) return null;
    const [linkId, hour, country, device, referrer, count] = row as unknown[];
    if (
      typeof linkId !== 'string' ||
      typeof hour !== 'number' ||
      typeof country !== 'string' ||
      typeof device !== 'string' ||
      !DEVICES.has(device) ||
      typeof referrer !== 'string' ||
      !isSeq(count) ||
      count === 0
    ) {
      return null;
    }
    clicks += count;
    buckets.push({
      linkId,
      hour,
      country,
      device: device as DeviceClass,
      referrer,
      browser: 'other',
      os: 'other',
      city: NO_CITY,
      clicks: count,
    });
  }
  // Every id of the run is one of the clicks counted: no more, no fewer.
  if (clicks !== t - f + 1) return null;
  return { instance: i, fromSeq: f, toSeq: t, oldestAt: o, newestAt: n, buckets };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const DEVICES: ReadonlySet<string> = new Set(DEVICE_CLASSES);
const BROWSERS: ReadonlySet<string> = new Set(BROWSER_CLASSES);
const OSES: ReadonlySet<string> = new Set(OS_CLASSES);

function eventFromJson(json: unknown): ClickEvent | null {
  if (typeof json !== 'object' || json === null) return null;
  const { i, s, l, c, a, n, d, r, b, o, y, g } = json as Partial<Record<keyof EventJson, unknown>>;
  if (
    typeof i !== 'string' ||
    !isInstanceId(i) ||
    !isSeq(s) ||
    typeof l !== 'string' ||
    l === '' ||
    typeof c !== 'string' ||
    typeof a !== 'number' ||
    !Number.isSafeInteger(a) ||
    typeof n !== 'string' ||
    typeof d !== 'string' ||
    !DEVICES.has(d) ||
    typeof r !== 'string' ||
    (b !== undefined && (typeof b !== 'string' || !BROWSERS.has(b))) ||
    (o !== undefined && (typeof o !== 'string' || !OSES.has(o))) ||
    (y !== undefined && typeof y !== 'string') ||
    (g !== undefined && typeof g !== 'string')
  ) {
    return null;
  }
  return {
    instance: i,
    seq: s,
    linkId: l,
    code: c,
    at: a,
    country: n,
    device: d as DeviceClass,
    referrer: r,
    browser: (b ?? 'other') as BrowserClass,
    os: (o ?? 'other') as OsClass,
    city: y ?? NO_CITY,
    ...(g === undefined ? {} : { language: g }),
  };
}

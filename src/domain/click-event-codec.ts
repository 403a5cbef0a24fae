import { DEVICE_CLASSES, isInstanceId, type ClickEvent, type DeviceClass } from './click-event.js';

/**
 * Click events on the wire and in the embedded queue: JSON with short keys. A batch is
 * stored column by column, so a second of clicks is one row, not one row per click.
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
  };
  return JSON.stringify(json);
}

/** The event a message holds, or null for anything that is not one (never throws). */
export function decodeEvent(text: string): ClickEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  return eventFromJson(json);
}

interface BatchJson {
  i: string[];
  s: number[];
  l: string[];
  c: string[];
  a: number[];
  n: string[];
  d: string[];
  r: string[];
}

export function encodeBatch(events: readonly ClickEvent[]): string {
  const batch: BatchJson = { i: [], s: [], l: [], c: [], a: [], n: [], d: [], r: [] };
  for (const event of events) {
    batch.i.push(event.instance);
    batch.s.push(event.seq);
    batch.l.push(event.linkId);
    batch.c.push(event.code);
    batch.a.push(event.at);
    batch.n.push(event.country);
    batch.d.push(event.device);
    batch.r.push(event.referrer);
  }
  return JSON.stringify(batch);
}

/** The events of an encoded batch; unreadable events are left out. */
export function decodeBatch(text: string): ClickEvent[] {
  const batch = JSON.parse(text) as BatchJson;
  const events: ClickEvent[] = [];
  for (let index = 0; index < batch.s.length; index++) {
    const event = eventFromJson({
      i: batch.i[index],
      s: batch.s[index],
      l: batch.l[index],
      c: batch.c[index],
      a: batch.a[index],
      n: batch.n[index],
      d: batch.d[index],
      r: batch.r[index],
    });
    if (event !== null) events.push(event);
  }
  return events;
}

const DEVICES: ReadonlySet<string> = new Set(DEVICE_CLASSES);

function eventFromJson(json: unknown): ClickEvent | null {
  if (typeof json !== 'object' || json === null) return null;
  const { i, s, l, c, a, n, d, r } = json as Partial<Record<keyof EventJson, unknown>>;
  if (
    typeof i !== 'string' ||
    !isInstanceId(i) ||
    typeof s !== 'number' ||
    !Number.isSafeInteger(s) ||
    s < 0 ||
    typeof l !== 'string' ||
    l === '' ||
    typeof c !== 'string' ||
    typeof a !== 'number' ||
    !Number.isSafeInteger(a) ||
    typeof n !== 'string' ||
    typeof d !== 'string' ||
    !DEVICES.has(d) ||
    typeof r !== 'string'
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
  };
}

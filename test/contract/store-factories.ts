import { createHash, randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { monotonicFactory } from 'ulid';
import type { Link } from '../../src/domain/link.js';
import type { ApiKeyRecord } from '../../src/ports/api-key-store.js';
import type { IdempotencyClaim } from '../../src/ports/link-repository.js';
import type { Store } from '../../src/ports/store.js';

/** Opens a fresh, empty, migrated store; `cleanup` closes it and removes what it made. */
export type OpenStore = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;

/** The clock reading every factory starts from; tests pass `nowMs` explicitly. */
export const BASE_MS = Date.parse('2026-06-01T12:00:00Z');
export const HOUR_MS = 60 * 60 * 1000;

/** 26 characters of Crockford base32, as ULIDs are. */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

// Monotonic: ids made later always sort after ids made earlier, even within one millisecond,
// so "newest first (descending id)" is creation order reversed.
const nextId = monotonicFactory();
let sequence = 0;

function uniqueSuffix(): string {
  sequence += 1;
  return `${sequence.toString(36)}${randomBytes(4).toString('hex')}`;
}

/** Opens a fresh store for this test and closes it (and removes its files) after it. */
export async function openFresh(t: TestContext, openStore: OpenStore): Promise<Store> {
  const { store, cleanup } = await openStore();
  t.after(cleanup);
  return store;
}

export function makeId(): string {
  return nextId();
}

export function makeOwner(): string {
  return `owner-${uniqueSuffix()}`;
}

/** A code of the shared shape `[A-Za-z0-9_-]{3,64}`, without `_` (the search tests use it). */
export function makeCode(): string {
  return `c${uniqueSuffix()}`;
}

/** A valid active link with a fresh id and code; `overrides` replace any field. */
export function makeLink(overrides: Partial<Link> = {}): Link {
  return {
    id: makeId(),
    code: makeCode(),
    owner: makeOwner(),
    destination: `https://example.test/${uniqueSuffix()}`,
    statusCode: 302,
    state: 'active',
    custom: false,
    title: null,
    tags: [],
    createdAt: BASE_MS,
    updatedAt: BASE_MS,
    expiresAt: null,
    deletedAt: null,
    version: 1,
    smart: null,
    domain: '',
    preview: null,
    crawlable: false,
    ...overrides,
  };
}

/** A live claim: its window opens a day before BASE_MS, so links made at BASE_MS are in it. */
export function makeClaim(overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim {
  return {
    owner: makeOwner(),
    key: `idem-${uniqueSuffix()}`,
    requestHash: `hash-${uniqueSuffix()}`,
    notBefore: BASE_MS - 24 * HOUR_MS,
    ...overrides,
  };
}

export function makeKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secret = `hop_${randomBytes(16).toString('hex')}`;
  return {
    id: makeId(),
    owner: makeOwner(),
    admin: false,
    keyHash: createHash('sha256').update(secret).digest('hex'),
    prefix: secret.slice(0, 8),
    createdAt: BASE_MS + sequence,
    revokedAt: null,
    name: null,
    scopes: null,
    domains: null,
    expiresAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

export function idsOf(links: readonly { readonly id: string }[]): string[] {
  return links.map((link) => link.id);
}

/** The ids of `links`, newest first: the order every listLinks answer must have. */
export function newestFirst(links: readonly Link[]): string[] {
  return idsOf(links).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** Gives each link its all-time clicks by folding one tally (what the aggregator does). */
export async function giveClicks(store: Store, clicks: ReadonlyMap<string, number>): Promise<void> {
  const buckets = [...clicks]
    .filter(([, n]) => n > 0)
    .map(([linkId, n]) => ({
      linkId,
      hour: BASE_MS,
      country: 'DE',
      device: 'desktop' as const,
      referrer: '',
      browser: 'chrome' as const,
      os: 'windows' as const,
      city: '',
      clicks: n,
    }));
  const tally = {
    instance: `sort-${Math.random()}`,
    fromSeq: 1,
    toSeq: 1,
    oldestAt: BASE_MS,
    newestAt: BASE_MS,
    buckets,
  };
  await store.clicks.fold([tally], 50);
}

/** The console's one way to the server: same-origin fetch, the session cookie, CSRF. */

export interface Session {
  readonly owner: string;
  /** False for an owner's key: its links only, no dashboard, no owner filter. */
  readonly admin: boolean;
  /** What the key may do (issue 22): pages and forms the key could not use are not offered. */
  readonly scopes: readonly Scope[];
  readonly key_id: string;
  readonly expires_at: string;
  readonly csrf_token: string;
}

export interface Link {
  readonly id: string;
  readonly code: string;
  /** The link's short domain (issue 22): the host of HOP_PUBLIC_URL for the default one. */
  readonly domain: string;
  readonly short_url: string;
  readonly destination: string;
  readonly status_code: number;
  readonly state: 'active' | 'disabled' | 'expired' | 'deleted';
  readonly custom: boolean;
  readonly owner: string;
  readonly title: string | null;
  readonly tags: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly expires_at: string | null;
  readonly version: number;
  readonly clicks: number;
  /** Smart-link settings (issue 21); the password itself never leaves the server. */
  readonly rules: readonly Rule[];
  readonly variants: readonly Variant[];
  readonly password_protected: boolean;
  readonly max_clicks: number | null;
  readonly fallback_url: string | null;
  readonly forward_query: boolean;
  /** The destination's utm_* parameters, read back from it. */
  readonly utm: Partial<Readonly<Record<UtmKey, string>>>;
}

export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

/** A rule's conditions as the API writes them (src/domain/smart/smart-options-json.ts). */
export interface RuleConditions {
  readonly device?: readonly string[];
  readonly os?: readonly string[];
  readonly browser?: readonly string[];
  readonly language?: readonly string[];
  readonly country?: readonly string[];
  /** Parameter name → the value it must have, or true for present with any value. */
  readonly query?: Readonly<Record<string, string | true>>;
  readonly ip?: readonly string[];
  /** RFC 3339 instants. */
  readonly after?: string;
  readonly before?: string;
}

export interface Rule {
  readonly destination: string;
  /** Absent: the link's own status code. */
  readonly status_code?: number;
  readonly when: RuleConditions;
}

export interface Variant {
  readonly destination: string;
  readonly weight: number;
}

/** A short domain (issue 22); the default one is the host of HOP_PUBLIC_URL and comes first. */
export interface Domain {
  readonly host: string;
  readonly default: boolean;
  readonly root_redirect: string | null;
  readonly not_found_redirect: string | null;
  readonly https: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}

export const SCOPES = [
  'links:read',
  'links:write',
  'analytics:read',
  'domains:write',
  'keys:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** An API key as listed: never its secret, which only the 201 of its creation carries. */
export interface ApiKey {
  readonly id: string;
  readonly owner: string;
  readonly admin: boolean;
  readonly name: string | null;
  readonly prefix: string;
  readonly scopes: readonly Scope[];
  /** The only domains the key may use; null: every domain. */
  readonly domains: readonly string[] | null;
  readonly expires_at: string | null;
  readonly last_used_at: string | null;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

export interface IssuedKey extends ApiKey {
  readonly key: string;
}

export interface Tag {
  readonly name: string;
  readonly links: number;
  readonly clicks: number;
}

/** One item of a bulk call's 207: its link, or the problem that stopped it. */
export interface BulkResult {
  readonly id: string;
  readonly status: number;
  readonly link?: Link;
  readonly problem?: { readonly detail?: string; readonly title?: string };
}

export interface LinkPage {
  readonly items: readonly Link[];
  readonly next_cursor: string | null;
}

export interface Analytics {
  readonly from: string;
  readonly to: string;
  readonly bucket: 'hour' | 'day';
  readonly total: number;
  readonly series: readonly { readonly start: string; readonly clicks: number }[];
  readonly by_country: readonly { readonly country: string; readonly clicks: number }[];
  readonly by_device: readonly { readonly device: string; readonly clicks: number }[];
  readonly by_referrer: readonly { readonly referrer: string; readonly clicks: number }[];
  readonly by_browser: readonly { readonly browser: string; readonly clicks: number }[];
  readonly by_os: readonly { readonly os: string; readonly clicks: number }[];
  /** Empty unless HOP_GEOIP_DB names a city database. */
  readonly by_city: readonly { readonly city: string; readonly clicks: number }[];
  readonly freshness: string | null;
}

/** `GET /v1/analytics` (issue 23): the caller's clicks across all its links. */
export interface AllAnalytics extends Omit<Analytics, 'by_city'> {
  readonly bot_clicks: number;
  readonly top_links: readonly {
    readonly id: string;
    readonly code: string;
    readonly domain: string;
    readonly short_url: string;
    readonly title: string | null;
    readonly clicks: number;
  }[];
}

export interface Dashboard {
  /** Links by state, counted in the store as of counted_at (ADR 0100). */
  readonly links: {
    readonly total: number;
    readonly active: number;
    readonly disabled: number;
    readonly expired: number;
    readonly deleted: number;
    readonly counted_at: string;
  };
  readonly clicks: {
    readonly today: number;
    readonly week: number;
    readonly freshness: string | null;
  };
  readonly busiest: readonly { readonly clicks: number; readonly link: Link }[];
  readonly busiest_ranked_at: string | null;
  readonly redirects: {
    readonly per_second: number;
    readonly p99_ms: number | null;
    readonly window_seconds: number;
  };
}

/** A problem+json answer, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: readonly { readonly field: string; readonly detail: string }[];

  constructor(status: number, message: string, fields: ApiError['fields'] = []) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

let csrfToken = '';
/** Called when the server says the session has ended, wherever that happens. */
let onSignedOut: () => void = () => undefined;

export function useSession(session: Session | null, signedOut: () => void): void {
  csrfToken = session?.csrf_token ?? '';
  onSignedOut = signedOut;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'hop did not answer. Check the connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    if (response.status === 401 && path !== '/admin/session') onSignedOut();
    const detail = typeof json?.['detail'] === 'string' ? json['detail'] : response.statusText;
    const fields = Array.isArray(json?.['errors']) ? (json['errors'] as ApiError['fields']) : [];
    throw new ApiError(response.status, detail, fields);
  }
  return json as T;
}

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, value);
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
};

export const api = {
  session: () => call<Session>('GET', '/admin/session'),
  signIn: (key: string) => call<Session>('POST', '/admin/session', { key }),
  signOut: () => call<undefined>('DELETE', '/admin/session'),
  dashboard: () => call<Dashboard>('GET', '/admin/api/dashboard'),
  links: (query: {
    q?: string;
    state?: string;
    owner?: string;
    tag?: string;
    domain?: string;
    sort?: string;
    cursor?: string | undefined;
  }) => call<LinkPage>('GET', `/v1/links${q({ ...query, limit: '20' })}`),
  link: (id: string) => call<Link>('GET', `/v1/links/${encodeURIComponent(id)}`),
  /** Without a range, the API's own default range and bucket. */
  analytics: (id: string, range: { bucket?: string; from?: string; to?: string } = {}) =>
    call<Analytics>('GET', `/v1/links/${encodeURIComponent(id)}/analytics${q(range)}`),
  /** Across all the signed-in key's links; without a range, the API's default. */
  allAnalytics: (range: { bucket?: string; from?: string; to?: string } = {}) =>
    call<AllAnalytics>('GET', `/v1/analytics${q(range)}`),
  create: (body: Record<string, unknown>) => call<Link>('POST', '/v1/links', body),
  update: (id: string, body: Record<string, unknown>) =>
    call<Link>('PATCH', `/v1/links/${encodeURIComponent(id)}`, body),
  disable: (id: string) => call<Link>('POST', `/v1/links/${encodeURIComponent(id)}/disable`),
  enable: (id: string) => call<Link>('POST', `/v1/links/${encodeURIComponent(id)}/enable`),
  remove: (id: string) => call<undefined>('DELETE', `/v1/links/${encodeURIComponent(id)}`),
  domains: () => call<{ domains: readonly Domain[] }>('GET', '/v1/domains'),
  createDomain: (body: Record<string, unknown>) => call<Domain>('POST', '/v1/domains', body),
  updateDomain: (host: string, body: Record<string, unknown>) =>
    call<Domain>('PATCH', `/v1/domains/${encodeURIComponent(host)}`, body),
  removeDomain: (host: string) =>
    call<undefined>('DELETE', `/v1/domains/${encodeURIComponent(host)}`),
  keys: () => call<{ keys: readonly ApiKey[] }>('GET', '/v1/keys'),
  createKey: (body: Record<string, unknown>) => call<IssuedKey>('POST', '/v1/keys', body),
  revokeKey: (id: string) => call<undefined>('DELETE', `/v1/keys/${encodeURIComponent(id)}`),
  tags: (query: { search?: string; cursor?: string | undefined }) =>
    call<{ tags: readonly Tag[]; next_cursor: string | null }>(
      'GET',
      `/v1/tags${q({ ...query, limit: '50' })}`,
    ),
  renameTag: (name: string, to: string) =>
    call<{ name: string; links: number }>('PATCH', `/v1/tags/${encodeURIComponent(name)}`, {
      name: to,
    }),
  removeTag: (name: string) => call<undefined>('DELETE', `/v1/tags/${encodeURIComponent(name)}`),
  /** PATCH /v1/links/bulk: one change to many links, a result per link (207). */
  bulkUpdate: (ids: readonly string[], patch: Record<string, unknown>) =>
    call<{ results: readonly BulkResult[] }>('PATCH', '/v1/links/bulk', { ids, patch }),
  bulkRemove: (ids: readonly string[]) =>
    call<{ results: readonly BulkResult[] }>('DELETE', '/v1/links/bulk', { ids }),
  qrUrl: (id: string, format: 'svg' | 'png', size: number) =>
    `/v1/links/${encodeURIComponent(id)}/qr?format=${format}&size=${size}`,
};

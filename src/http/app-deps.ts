import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AnalyticsDeps } from '../services/analytics/analytics-deps.js';
import type { DomainServiceDeps } from '../services/domains/domain-service-deps.js';
import type { KeyServiceDeps } from '../services/keys/key-service-deps.js';
import type { LinkServiceDeps } from '../services/links/link-service-deps.js';
import type { BulkCallDeps } from '../services/links/bulk/run-bulk-call.js';
import type { WebhookServiceDeps } from '../services/webhooks/webhook-service-deps.js';
import type { TagServiceDeps } from '../services/tags/tag-service-deps.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';
import type { LinkCountSnapshot } from '../services/stats/link-counts.js';
import type { ServiceStats } from '../services/stats/service-stats.js';
import type { LinkQrDeps } from '../services/links/link-qr-code.js';
import type { ConsoleSessionDeps } from '../services/console/console-sessions.js';
import type { DashboardDeps } from '../services/console/dashboard.js';
import type { LoadShedder } from '../services/protection/load-shedder.js';
import type { ScannerThrottle } from '../services/protection/scanner-throttle.js';
import type { ClientAddressOf, ClientOf } from './client-address.js';
import type { SmartAnswerDeps } from './smart-answer.js';
import type { RobotsRules } from '../services/links/robots-rules.js';
import type { EventStreams } from '../services/events/event-streams.js';

/** Metrics as the HTTP layer sees them: record a redirect, render for a scrape. */
export interface HttpMetrics {
  observeRedirect(outcome: string, startedAt: number): void;
  render(): Promise<{ contentType: string; body: string }>;
}

/** One built file of the admin console, held in memory: there are three of them. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

/** The admin console (`/admin`, SPEC §8). */
export interface ConsoleDeps {
  readonly sessions: ConsoleSessionDeps;
  readonly dashboard: DashboardDeps;
  /** By file name (`index.html`, `app.js`, …); null when the console was not built. */
  readonly assets: ReadonlyMap<string, ConsoleAsset> | null;
  /** Session cookies get `Secure` when hop is served over https. */
  readonly secureCookie: boolean;
}

/** Everything buildApp needs, built once by the composition root (src/main). */
export interface AppDeps {
  readonly linkService: LinkServiceDeps;
  readonly keyService: KeyServiceDeps;
  /** Short domains (issue 22): `/v1/domains`. */
  readonly domainService: DomainServiceDeps;
  /** Webhooks (issue 23): `/v1/webhooks`. */
  readonly webhookService: WebhookServiceDeps;
  /** Tags: counted, renamed, removed (issue 22). */
  readonly tagService: TagServiceDeps;
  readonly redirect: RedirectResolver;
  /** The short domains: the redirect's routing by Host and every short URL (issue 22). */
  readonly domainRoutes: DomainRoutes;
  readonly analytics: AnalyticsDeps;
  /** Counts a redirect's click; null when analytics are off. */
  readonly clicks: ClickRecorder | null;
  /** Lower-case name of the trusted header carrying the client's country. */
  readonly countryHeader: string | undefined;
  /**
   * The client's whole address, for a click's country when `countryHeader` is unset
   * (issue 21); the socket's string as it is (IPv4-mapped kept: ADR 0109).
   */
  readonly clickAddressOf: ClientAddressOf;
  /** Resolves when the store answers (readiness). */
  readonly pingStore: () => Promise<void>;
  readonly publicUrl: string;
  /** Where `GET /` sends a visitor (HOP_ROOT_REDIRECT); undefined: hop's own page. */
  readonly rootRedirect: string | undefined;
  /** Links' QR codes (`GET /v1/links/{id}/qr`, and the `+` page's). */
  readonly qrCodes: LinkQrDeps;
  /** Each domain's robots.txt, from its crawlable links (issue 22). */
  readonly robots: RobotsRules;
  readonly logger: FastifyBaseLogger;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimitBytes: number;
  /** Largest body of a bulk link call (up to 1,000 items), in bytes (ADR 0120). */
  readonly bulkBodyLimitBytes: number;
  /** Answers of bulk calls made with an Idempotency-Key, for their replays (ADR 0120). */
  readonly bulkCalls: BulkCallDeps;
  readonly metrics: HttpMetrics;
  /** HOP_METRICS_TOKEN: /metrics answers only this bearer token; unset: open. */
  readonly metricsToken: string | undefined;
  readonly console: ConsoleDeps;
  /** `GET /v1/stats`: the code space and what creates cost (admin). */
  readonly stats: () => ServiceStats;
  /** Links by state as of the newest census in the store (ADR 0100). */
  readonly linkCounts: () => Promise<LinkCountSnapshot>;
  readonly protection: ProtectionDeps;
  /** What smart links need beyond a plain redirect (issue 21). */
  readonly smartLinks: SmartLinkDeps;
  readonly timeouts: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number };
  /** `GET /v1/events` (issue 23, ADR 0129). */
  readonly events: EventStreamDeps;
}

/**
 * The event stream: the process's streams (an in-process hub, or `hop serve`'s integrations
 * thread: ADR 0132), and how often an idle stream says it is alive.
 */
export interface EventStreamDeps {
  readonly streams: EventStreams;
  readonly heartbeatMs: number;
}

/** A smart link's password gate, click budgets and visitor sources (issue 21). */
export type SmartLinkDeps = Omit<SmartAnswerDeps, 'writer'>;

/** Abuse resistance (SPEC §7). */
export interface ProtectionDeps {
  /** Null when scanner throttling is off. */
  readonly scanners: ScannerThrottle | null;
  readonly shedder: LoadShedder;
  readonly clientOf: ClientOf;
  /** Starts measuring event-loop lag for the shedder: called once the server listens. */
  readonly startLoadSampling: () => void;
}

/**
 * Takes a counted redirect's click into the buffer: never waits, never throws, allocates
 * nothing of its own. Header values already classified are kept as their canonical
 * dimension; new ones are kept raw and classified by the flusher.
 */
export type ClickRecorder = (
  /** The request's start, a `performance.now()` reading: the click's time (ADR 0152). */
  startedAt: number,
  linkId: string,
  code: string,
  userAgent: string | undefined,
  referer: string | undefined,
  country: string | undefined,
  /** The client's address, when its country is to be looked up (no country header). */
  address: string | undefined,
  /** Accept-Language as sent: parsed at the flush, not here (ADR 0125). */
  acceptLanguage: string | undefined,
) => void;

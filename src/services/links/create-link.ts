import { createHash } from 'node:crypto';
import { assertValidAlias, isReservedAlias } from '../../domain/alias-rules.js';
import { HopError } from '../../domain/errors.js';
import { resolveExpiry } from '../../domain/expiry.js';
import { DEFAULT_REDIRECT_STATUS, type Link } from '../../domain/link.js';
import { normaliseTags, normaliseTitle } from '../../domain/link-fields.js';
import { canUseDomain, type Principal } from '../../domain/principal.js';
import { DEFAULT_DOMAIN, storedDomainOf } from '../../domain/link-domain.js';
import type { QuotaReading } from '../../domain/quota.js';
import type { SmartInput } from '../../domain/smart/parse-smart-input.js';
import { NO_SMART_OPTIONS, type SmartOptions } from '../../domain/smart/smart-options.js';
import type { IdempotencyClaim } from '../../ports/link-repository.js';
import { verifyLinkPassword } from './link-password.js';
import {
  checkSmartFields,
  destinationWithUtm,
  newPasswordHash,
  smartOptionsAfter,
  type SmartFields,
} from './smart-link-fields.js';
import { checkDestinationOrThrow } from './check-destination-or-throw.js';
import { checkPreview } from './check-preview.js';
import { checkStatusCodeOrThrow } from './check-status-code-or-throw.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { takeCreateQuota } from './take-create-quota.js';

/** SPEC §3: an idempotency record answers replays for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

export interface CreateLinkInput {
  readonly destination: string;
  readonly alias?: string | null | undefined;
  readonly statusCode?: number | null | undefined;
  readonly expiresAt?: string | null | undefined;
  readonly ttlSeconds?: number | null | undefined;
  readonly title?: string | null | undefined;
  readonly tags?: readonly string[] | undefined;
  /** The short domain's host (issue 22); absent: the default domain. */
  readonly domain?: string | null | undefined;
  /** What crawlers show (issue 22), as the API spells it, unchecked; null or absent: none. */
  readonly preview?: unknown;
  /** Search engines may index the link (issue 22); absent: false. */
  readonly crawlable?: boolean | undefined;
  /**
   * Created disabled: an imported link that was disabled where it was exported, which must
   * never redirect, not even between its create and a disable. Not in the API's create.
   */
  readonly disabled?: boolean | undefined;
  /** Rules, variants, password, limit, fallback, forwarding and UTM, as the API spells them. */
  readonly smart?: SmartFields | undefined;
  /**
   * The password as an exported link's stored hash (`isEncodedLinkPassword`), kept as it
   * is so an imported link asks for the same password (ADR 0113). Not in the API's
   * create; never with `smart.password`.
   */
  readonly passwordHash?: string | undefined;
}

export interface CreateLinkResult {
  readonly link: Link;
  /** True when an earlier request with the same idempotency key made this link. */
  readonly replayed: boolean;
  /** Where the caller stands against the create rate limits (none for admins, replays). */
  readonly quotas: readonly QuotaReading[];
}

/** How the request came, beyond who made it. */
export interface CreateContext {
  readonly idempotencyKey?: string | undefined;
  /** The client's address (its /64 for IPv6), rate limited like the key; none from the CLI. */
  readonly client?: string | undefined;
}

/**
 * Creates a link (SPEC §3): rate limit, validation, then a conditional insert that claims
 * the idempotency key in the same transaction. A generated code that is taken is retried
 * with a fresh one, a bounded number of times; a taken alias is a conflict.
 */
export async function createLink(
  deps: LinkServiceDeps,
  principal: Principal,
  input: CreateLinkInput,
  context: CreateContext = {},
): Promise<CreateLinkResult> {
  const { idempotencyKey } = context;
  // A retry of a create that succeeded gets its answer before anything else is checked:
  // neither the rate limit nor an expiry that has since passed may turn it into an error.
  const requestHash = idempotencyKey === undefined ? undefined : fingerprint(input);
  if (idempotencyKey !== undefined && requestHash !== undefined) {
    deps.createCounters.idempotencyReads++;
    const earlier = await deps.links.findIdempotencyRecord(
      principal.owner,
      idempotencyKey,
      deps.clock.now() - IDEMPOTENCY_WINDOW_MS,
    );
    if (earlier !== null)
      return replayOrThrow(earlier.link, earlier.requestHash, requestHash, input);
  }

  const quotas = await takeCreateQuota(deps.createLimiter, principal, context.client);
  const domain = await storedDomainOrThrow(deps, principal, input.domain);

  const now = deps.clock.now();
  const destination = checkDestinationOrThrow(input.destination, deps.destinationPolicy);
  const alias = input.alias ?? null;
  if (alias !== null) assertValidAlias(alias);
  const statusCode = checkStatusCodeOrThrow(input.statusCode ?? DEFAULT_REDIRECT_STATUS);
  const expiresAt = resolveExpiry(input, now, deps.expiryPolicy);
  const title = normaliseTitle(input.title);
  const tags = normaliseTags(input.tags);
  const smartInput = input.smart === undefined ? undefined : checkSmartFields(input.smart, deps);
  const preview = input.preview === undefined ? null : checkPreview(input.preview, deps);
  const smart = await newSmartOptions(smartInput, input.passwordHash);
  const finalDestination = destinationWithUtm(destination, smartInput, deps);

  const claim: IdempotencyClaim | undefined =
    idempotencyKey === undefined || requestHash === undefined
      ? undefined
      : {
          owner: principal.owner,
          key: idempotencyKey,
          requestHash,
          notBefore: now - IDEMPOTENCY_WINDOW_MS,
        };

  const attempts = alias === null ? deps.maxCodeAttempts : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const code = alias ?? (await deps.codes.generate({ destination: finalDestination, attempt }));
    // A generated code may spell a route of ours ("healthz" is 7 base62 characters).
    if (alias === null && isReservedAlias(code)) continue;
    const link: Link = {
      id: deps.newId(),
      domain,
      code,
      owner: principal.owner,
      destination: finalDestination,
      statusCode,
      state: input.disabled === true ? 'disabled' : 'active',
      custom: alias !== null,
      title,
      tags,
      createdAt: now,
      updatedAt: now,
      expiresAt,
      deletedAt: null,
      version: 1,
      smart,
      preview,
      crawlable: input.crawlable === true,
    };
    deps.createCounters.insertAttempts++;
    const result = await deps.links.insertLink(link, claim);
    switch (result.kind) {
      case 'inserted':
        deps.createCounters.created++;
        deps.events.linkCreated(result.link);
        return { link: result.link, replayed: false, quotas };
      case 'replayed':
        // Another request with this key committed between our first look and the insert.
        return replayOrThrow(result.record.link, result.record.requestHash, requestHash, input);
      case 'code-taken':
        if (alias !== null) throw await aliasTaken(deps, domain, alias);
    }
  }
  throw new HopError(
    'code-space-exhausted',
    `No free code found in ${attempts} attempts; try again shortly.`,
    { retryable: true, retryAfterSeconds: 1 },
  );
}

/**
 * The stored host of the domain a create names (ADR 0115): `''` for none or the default
 * host; a registered domain's host; else `invalid-request` on `domain`, the same for a
 * domain that does not exist and one the key may not use (issue 22).
 */
async function storedDomainOrThrow(
  deps: LinkServiceDeps,
  principal: Principal,
  requested: string | null | undefined,
): Promise<string> {
  const stored = requested == null ? DEFAULT_DOMAIN : storedDomainOf(requested, deps.defaultHost);
  const host = stored === DEFAULT_DOMAIN ? deps.defaultHost : stored;
  const named = requested == null || requested.trim() !== '';
  const known =
    named && (stored === DEFAULT_DOMAIN || (await deps.domains.findDomain(stored)) !== null);
  if (known && canUseDomain(principal, stored)) return stored;
  const detail = named
    ? `There is no domain "${host}"; GET /v1/domains lists them.`
    : 'domain names a short domain by its host; leave it out for the default domain.';
  throw new HopError('invalid-request', detail, { fields: [{ field: 'domain', detail }] });
}

/** A new link's options: the write's, with an imported password hash when there is one. */
async function newSmartOptions(
  input: SmartInput | undefined,
  importedHash: string | undefined,
): Promise<SmartOptions | null> {
  if (importedHash === undefined) {
    return input === undefined
      ? null
      : smartOptionsAfter(null, input, await newPasswordHash(input));
  }
  if (input?.password !== undefined) {
    throw new HopError('invalid-request', 'A link takes a password or its hash, not both.', {
      fields: [{ field: 'password', detail: 'Not with a password hash.' }],
    });
  }
  return {
    ...(smartOptionsAfter(null, input ?? {}, null) ?? NO_SMART_OPTIONS),
    passwordHash: importedHash,
  };
}

/**
 * Why an alias cannot be had: held by a link, or held for good by a deleted one (custom
 * aliases are never reclaimed or reused: SPEC §2). One more read, on this refusal only.
 */
async function aliasTaken(deps: LinkServiceDeps, domain: string, alias: string): Promise<HopError> {
  const holder = await deps.links.findLinkByCode(domain, alias);
  const detail =
    holder?.state === 'deleted'
      ? `The alias "${alias}" belonged to a deleted link; an alias is never reused, so choose another.`
      : `The alias "${alias}" is already taken.`;
  return new HopError('alias-taken', detail, { fields: [{ field: 'alias', detail }] });
}

async function replayOrThrow(
  link: Link,
  storedHash: string,
  requestHash: string | undefined,
  input: CreateLinkInput,
): Promise<CreateLinkResult> {
  // The fingerprint holds no password (it is an unsalted digest): a replay's password is
  // checked against the link's own hash instead.
  const password = input.smart?.password;
  const samePassword =
    typeof password !== 'string' ||
    (link.smart?.passwordHash != null &&
      (await verifyLinkPassword(password, link.smart.passwordHash)));
  if (storedHash !== requestHash || !samePassword) {
    throw new HopError(
      'idempotency-key-reused',
      'This Idempotency-Key was already used with a different request.',
    );
  }
  return { link, replayed: true, quotas: [] };
}

function fingerprintFields(fields: SmartFields): unknown {
  const { password, ...rest } = fields;
  return { ...rest, password: password === undefined ? undefined : password !== null };
}

/** A stable fingerprint of what was asked: key order and absent-vs-null do not matter. */
function fingerprint(input: CreateLinkInput): string {
  const canonical = JSON.stringify([
    input.destination,
    input.alias ?? null,
    input.statusCode ?? null,
    input.expiresAt ?? null,
    input.ttlSeconds ?? null,
    input.title ?? null,
    input.tags ?? [],
    // Only when set: the API never sets it, and its keys' fingerprints stay as they were.
    ...(input.disabled === true ? [true] : []),
    // Only when given, for the same reason; the password by a salted hash's absence: a
    // fingerprint is an unsalted digest and must not carry a password (issue 21).
    ...(input.smart === undefined ? [] : [fingerprintFields(input.smart)]),
    // Only when given (issue 22), as above.
    ...(input.domain == null ? [] : [{ domain: input.domain }]),
    ...(input.preview == null ? [] : [{ preview: input.preview }]),
    ...(input.crawlable === undefined ? [] : [{ crawlable: input.crawlable }]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

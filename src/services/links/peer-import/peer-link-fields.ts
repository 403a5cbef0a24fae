import { importedCodeProblem } from '../../../domain/alias-rules.js';
import { checkDestination } from '../../../domain/destination-policy.js';
import { isRedirectStatus, type Link, type RedirectStatus } from '../../../domain/link.js';
import { fitTitle, isTagName, MAX_TAGS } from '../../../domain/link-fields.js';
import { NO_SMART_OPTIONS } from '../../../domain/smart/smart-options.js';
import { isKeptBcryptHash, isEncodedLinkPassword } from '../link-password.js';
import type { PeerLink } from './peer-link.js';
import type { PeerImportDeps } from './peer-import-deps.js';

/** The latest time a ULID can hold (48 bits of milliseconds). */
const MAX_ULID_TIME = 2 ** 48 - 1;

/** A row's fields as hop keeps them, or why the row cannot be imported. */
export type PeerLinkVerdict =
  | { readonly ok: true; readonly fields: PeerLinkFields }
  | { readonly ok: false; readonly detail: string };

/** Everything of the link but its id, owner and domain, checked. */
export interface PeerLinkFields {
  readonly code: string;
  readonly destination: string;
  readonly title: string | null;
  readonly tags: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly state: 'active' | 'disabled';
  readonly passwordHash: string | null;
  readonly clicks: number;
  readonly statusCode: RedirectStatus;
}

/**
 * Checks one peer link as a create would check it, keeping what a create would not
 * (issue 24, ADR 0136): a code outside the alias rules (but within hop's code shape), the
 * creation time, an expiry already past (the link imports as expired), the disabled state
 * and a kept password hash. A destination the policy refuses, a reserved code, a tag hop
 * cannot hold: the row is reported, never changed into something else. A title longer
 * than hop's is shortened: it is for people, and a page's title often is.
 */
export function checkPeerLink(deps: PeerImportDeps, row: PeerLink, nowMs: number): PeerLinkVerdict {
  const codeProblem = importedCodeProblem(row.code);
  if (codeProblem !== null) return refuse(codeProblem);
  const destination = checkDestination(row.destination, deps.destinationPolicy);
  if (!destination.ok) return refuse(`The destination is refused: ${destination.reason}`);
  const tags = [...new Set(row.tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  const badTag = tags.find((tag) => !isTagName(tag));
  if (badTag !== undefined) {
    return refuse(
      `The tag "${badTag}" cannot be kept: a tag has 1 to 64 letters, digits or "_.:-".`,
    );
  }
  if (tags.length > MAX_TAGS)
    return refuse(`The link has ${tags.length} tags; hop keeps ${MAX_TAGS}.`);
  if (row.createdAt !== null && !isEpochMs(row.createdAt)) {
    return refuse('The creation time is not a time hop can keep.');
  }
  if (row.expiresAt !== null && !isEpochMs(row.expiresAt)) {
    return refuse('The expiry is not a time hop can keep.');
  }
  if (!Number.isSafeInteger(row.clicks) || row.clicks < 0) {
    return refuse(`The click total ${String(row.clicks)} is not a count.`);
  }
  if (!isRedirectStatus(row.statusCode)) {
    return refuse(`The redirect status ${String(row.statusCode)} is not one hop answers with.`);
  }
  if (row.passwordHash !== null && !isKeptHash(row.passwordHash)) {
    return refuse(
      'The password hash cannot be kept: hop verifies bcrypt ($2a$, $2b$, $2y$) of cost 4 to 12, and its own.',
    );
  }
  return {
    ok: true,
    fields: {
      code: row.code,
      destination: destination.destination,
      title: fitTitle(row.title),
      tags,
      createdAt: row.createdAt ?? nowMs,
      expiresAt: row.expiresAt,
      state: row.state,
      passwordHash: row.passwordHash,
      clicks: row.clicks,
      statusCode: row.statusCode,
    },
  };
}

/** The link a checked row becomes: custom, so its code is never reclaimed (SPEC §2). */
export function linkOf(
  fields: PeerLinkFields,
  id: string,
  owner: string,
  domain: string,
  nowMs: number,
): Link {
  return {
    id,
    domain,
    code: fields.code,
    owner,
    destination: fields.destination,
    statusCode: fields.statusCode,
    state: fields.state,
    custom: true,
    title: fields.title,
    tags: fields.tags,
    createdAt: fields.createdAt,
    updatedAt: nowMs,
    expiresAt: fields.expiresAt,
    deletedAt: null,
    version: 1,
    smart:
      fields.passwordHash === null
        ? null
        : { ...NO_SMART_OPTIONS, passwordHash: fields.passwordHash },
    preview: null,
    crawlable: false,
  };
}

function isKeptHash(hash: string): boolean {
  return isKeptBcryptHash(hash) || isEncodedLinkPassword(hash);
}

function isEpochMs(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_ULID_TIME;
}

function refuse(detail: string): PeerLinkVerdict {
  return { ok: false, detail };
}

import { KuttRefusal } from './kutt-errors.js';
import { expiryOfDuration } from './kutt-duration.js';

/** Kutt's password bounds are 3–64; hop's smart-link passwords start at 4 (ADR 0134). */
const MIN_PASSWORD = 4;
const MAX_PASSWORD = 64;
export const PASSWORD_LENGTH = `Password length must be between ${MIN_PASSWORD} and ${MAX_PASSWORD}.`;
/** Kutt's edit form shows a set password as bullets; sent back, they change nothing. */
const BULLETS_ONLY = /^•+$/;

/** A create as Kutt's POST /links body asks it, read into what hop's create takes. */
export interface KuttCreate {
  readonly target: string;
  readonly customurl: string | undefined;
  readonly password: string | undefined;
  readonly description: string | undefined;
  /** RFC 3339, from `expire_in`. */
  readonly expiresAt: string | undefined;
  readonly reuse: boolean;
  /** The host asked for; undefined: the default domain. */
  readonly domain: string | undefined;
}

/** A PATCH /links/:id body: only what it would change (Kutt ignores empty values). */
export interface KuttEdit {
  readonly target: string | undefined;
  readonly address: string | undefined;
  readonly description: string | undefined;
  readonly expiresAt: string | undefined;
  /** A new password; null removes the link's (sent as "" or null). */
  readonly password: string | null | undefined;
}

/** The body as an object of fields; anything else has no target (Kutt's first check). */
function fieldsOf(body: unknown): Readonly<Record<string, unknown>> {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** Kutt's `checkFalsy` optional fields: absent, null, false, 0 and "" are "not given". */
function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}

/** Kutt's `addProtocol`: a target without a scheme is taken as http. */
function withProtocol(url: string): string {
  return /^(\w+:|\/\/)/.test(url) ? url : `http://${url}`;
}

function targetOf(value: unknown): string {
  if (typeof value !== 'string') throw new KuttRefusal(400, 'URL is not valid.');
  const trimmed = value.trim();
  if (trimmed === '') throw new KuttRefusal(400, 'Target is missing.');
  return withProtocol(trimmed);
}

function stringOf(value: unknown, message: string): string {
  if (typeof value !== 'string') throw new KuttRefusal(400, message);
  return value.trim();
}

function passwordOf(value: unknown): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD || value.length > MAX_PASSWORD) {
    throw new KuttRefusal(400, PASSWORD_LENGTH);
  }
  return value;
}

/** express-validator's isBoolean, as Kutt checks `reuse`. */
function reuseOf(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  throw new KuttRefusal(400, 'Reuse must be boolean.');
}

/** Kutt's createLink validators, in Kutt's order and words; unknown fields are ignored. */
export function readKuttCreate(body: unknown, nowMs: number): KuttCreate {
  const fields = fieldsOf(body);
  if (!given(fields['target'])) throw new KuttRefusal(400, 'Target is missing.');
  const target = targetOf(fields['target']);
  const password = given(fields['password']) ? passwordOf(fields['password']) : undefined;
  const customurl = given(fields['customurl'])
    ? stringOf(fields['customurl'], 'Custom URL is not valid.')
    : undefined;
  const reuse = reuseOf(fields['reuse']);
  const description = given(fields['description'])
    ? stringOf(fields['description'], 'Description length must be between 1 and 2040.')
    : undefined;
  const expiresAt = given(fields['expire_in'])
    ? expiryOfDuration(fields['expire_in'], nowMs)
    : undefined;
  const domain = given(fields['domain'])
    ? stringOf(fields['domain'], 'Domain should be string.').toLowerCase()
    : undefined;
  return {
    target,
    customurl: customurl === '' ? undefined : customurl,
    password,
    description: description === '' ? undefined : description,
    expiresAt,
    reuse,
    domain,
  };
}

/** Kutt's editLink validators: every field optional, empty ones ignored. */
export function readKuttEdit(body: unknown, nowMs: number): KuttEdit {
  const fields = fieldsOf(body);
  const target = given(fields['target']) ? targetOf(fields['target']) : undefined;
  const address = given(fields['address'])
    ? stringOf(fields['address'], 'Custom URL is not valid')
    : undefined;
  const description = given(fields['description'])
    ? stringOf(fields['description'], 'Description length must be between 0 and 2040.')
    : undefined;
  const expiresAt = given(fields['expire_in'])
    ? expiryOfDuration(fields['expire_in'], nowMs)
    : undefined;
  return {
    target,
    address: address === '' ? undefined : address,
    description: description === '' ? undefined : description,
    expiresAt,
    password: editedPassword(fields),
  };
}

/**
 * The password a PATCH sets: a new one; null for "" or null (removes it); undefined when
 * absent or only the form's bullets. Kutt's form-driven edit also drops the password when
 * the field is absent; hop does not (ADR 0134): an API client leaving a field out keeps it.
 */
function editedPassword(fields: Readonly<Record<string, unknown>>): string | null | undefined {
  if (!('password' in fields)) return undefined;
  const value = fields['password'];
  if (value === null || value === '') return null;
  if (typeof value === 'string' && BULLETS_ONLY.test(value)) return undefined;
  return passwordOf(value);
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { HopError } from '../../domain/errors.js';
import { principalFor, type Principal } from '../../domain/principal.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/api-key-store.js';
import type { Clock } from '../../ports/clock.js';
import { findKeyBySecret } from '../keys/find-key-by-secret.js';
import { EXPIRED_KEY_DETAIL, hasKeyExpired } from '../keys/key-expiry.js';
import type { KeyUses } from '../keys/key-uses.js';
import type { ScannerThrottle } from '../protection/scanner-throttle.js';

export interface ConsoleSessionDeps {
  readonly keys: ApiKeyStore;
  readonly clock: Clock;
  /** How long a sign-in lasts. */
  readonly ttlMs: number;
  /**
   * The server's own secret, mixed with the key's stored hash into each session's MAC, so
   * that reading the key table is not enough to make a session. Null: the hash alone.
   * Asked for when a session is made or read: runtimes that serve no console never need it.
   */
  readonly secret: () => Buffer | null;
  /** Refused sign-ins per client address: past a few, the address waits; null: never. */
  readonly signInThrottle: ScannerThrottle | null;
  /** Keys' last use: a sign-in and a session's requests are uses of its key (ADR 0118). */
  readonly uses: Pick<KeyUses, 'record'>;
}

/** A signed-in console: who, until when, and the token its state changes must carry. */
export interface ConsoleSession {
  readonly principal: Principal;
  readonly expiresAt: number;
  readonly csrfToken: string;
  /** The cookie's value: what a sign-out records as ended. */
  readonly token: string;
}

/**
 * `<key id>.<expiry ms>.<mac>`: key ids are ULIDs; the expiry is written without leading
 * zeros, so one session has one spelling; the MAC is 32 bytes, base64url.
 */
const TOKEN = /^([0-9A-Za-z]{1,64})\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/;
const KEY = /^[\x21-\x7e]{1,512}$/;
/**
 * How far ahead another instance's clock may be: a session it signed reads here as lasting
 * that much longer than a sign-in gives. Without it, a console behind a load balancer bounced
 * back to its sign-in form whenever a request reached an instance with a slower clock.
 */
export const CLOCK_SKEW_MS = 60_000;

/**
 * Console sessions are signed, not stored: the token names the API key it was made
 * from and is MACed with that key's stored hash and the server's own secret, neither of
 * which leaves the server.
 * Any instance sharing the store can check it, and revoking the key ends its sessions at
 * once (ADR 0064).
 */
export async function signIn(
  deps: ConsoleSessionDeps,
  key: string,
  client: string,
): Promise<{ token: string; session: ConsoleSession }> {
  // Keys are not guessable, but a page that answers every guess invites trying: an
  // address whose refused attempts pass the threshold waits, whatever key it sends next.
  const waitMs = deps.signInThrottle?.coolDownLeft(client) ?? 0;
  if (waitMs > 0) {
    throw new HopError('rate-limited', 'Too many refused sign-ins from this address; wait.', {
      retryAfterSeconds: Math.ceil(waitMs / 1000),
      retryable: true,
    });
  }
  try {
    return await signInWithKey(deps, key);
  } catch (error) {
    deps.signInThrottle?.recordMiss(client);
    throw error;
  }
}

async function signInWithKey(
  deps: ConsoleSessionDeps,
  key: string,
): Promise<{ token: string; session: ConsoleSession }> {
  // Any active key signs in (ADR 0096): the session is the key's principal, so an owner's
  // console sees and changes what that owner's key may through the v1 API, and no more.
  if (!KEY.test(key)) throw new HopError('unauthorized', 'This API key is unknown or revoked.');
  const record = await findKeyBySecret(deps.keys, key);
  if (record === null) throw new HopError('unauthorized', 'This API key is unknown or revoked.');
  if (hasKeyExpired(record, deps.clock.now())) {
    throw new HopError('unauthorized', EXPIRED_KEY_DETAIL);
  }
  deps.uses.record(record);
  const expiresAt = deps.clock.now() + deps.ttlMs;
  const token = `${record.id}.${expiresAt}.${mac(deps.secret(), record, `session|${record.id}|${expiresAt}`)}`;
  return { token, session: sessionOf(deps.secret(), record, token, expiresAt) };
}

/** The session a cookie's token stands for; null if forged, expired, signed out or its key revoked. */
export async function readSession(
  deps: ConsoleSessionDeps,
  token: string,
): Promise<ConsoleSession | null> {
  const match = TOKEN.exec(token);
  if (match === null) return null;
  const [, keyId, expiry, given] = match as unknown as [string, string, string, string];
  const expiresAt = Number(expiry);
  const now = deps.clock.now();
  // Never later than a sign-in now would give, give or take the clocks of the instances
  // behind one load balancer: not even a forged MAC buys a longer session.
  if (expiresAt <= now || expiresAt > now + deps.ttlMs + CLOCK_SKEW_MS) return null;
  const record = await deps.keys.findActiveKeyById(keyId);
  // A key that expires ends its sessions with it, as revoking one does.
  if (record === null || hasKeyExpired(record, now)) return null;
  if (!sameSecret(given, mac(deps.secret(), record, `session|${keyId}|${expiresAt}`))) return null;
  if (await deps.keys.consoleSessionEnded(tokenHash(token))) return null;
  deps.uses.record(record);
  return sessionOf(deps.secret(), record, token, expiresAt);
}

/**
 * Signs out: the session is recorded as ended until its expiry, so the cookie is refused
 * on every instance sharing the store, wherever a copy of it went. The key's other
 * sessions (another browser, another operator sharing the key) go on.
 */
export async function signOut(deps: ConsoleSessionDeps, session: ConsoleSession): Promise<void> {
  // Forgotten only once past expiry by every clock: an instance up to CLOCK_SKEW_MS slower
  // still takes a session until then, and must still find it ended.
  const forgetUntil = deps.clock.now() - CLOCK_SKEW_MS;
  await deps.keys.endConsoleSession(tokenHash(session.token), session.expiresAt, forgetUntil);
}

/** True when `given` is the session's CSRF token, compared in constant time. */
export function carriesCsrfToken(session: ConsoleSession, given: string | undefined): boolean {
  return given !== undefined && sameSecret(given, session.csrfToken);
}

function sessionOf(
  secret: Buffer | null,
  record: ApiKeyRecord,
  token: string,
  expiresAt: number,
): ConsoleSession {
  return {
    principal: principalFor(record),
    expiresAt,
    token,
    // Bound to this very session: a token seen in one sign-in is useless in another.
    csrfToken: mac(secret, record, `csrf|${token}`),
  };
}

function mac(secret: Buffer | null, record: ApiKeyRecord, message: string): string {
  const key =
    secret === null ? record.keyHash : createHmac('sha256', secret).update(record.keyHash).digest();
  return createHmac('sha256', key).update(message).digest('base64url');
}

/** What the store keeps of an ended session: not the token itself, which is a credential. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

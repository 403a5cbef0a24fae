import { isHopError } from '../../../domain/errors.js';
import type { Principal } from '../../../domain/principal.js';
import { authenticateKey } from '../../../services/keys/authenticate.js';
import type { KeyServiceDeps } from '../../../services/keys/key-service-deps.js';
import { isPhpEmpty, type YourlsParams } from './yourls-params.js';
import type { YourlsResult } from './yourls-result.js';

export type YourlsAuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly refusal: YourlsResult };

/**
 * Who calls, as `yourls_is_valid_user` decides it in API mode (ADR 0135): `signature` is
 * a hop key; so is `password` beside any `username`. A signature with a `timestamp` is a
 * hash hop cannot check (it keeps only hashes of its keys), so it is refused like a wrong
 * one. Refusals are YOURLS's: 403, "Please log in", or "Invalid username or password" when
 * either of those was sent.
 */
export async function authenticateYourlsCall(
  keys: Pick<KeyServiceDeps, 'keys' | 'clock' | 'uses'>,
  params: YourlsParams,
): Promise<YourlsAuthOutcome> {
  const secret = secretOf(params);
  if (secret !== undefined) {
    try {
      return { ok: true, principal: await authenticateKey(keys, secret) };
    } catch (error) {
      if (!isHopError(error) || error.kind !== 'unauthorized') throw error;
    }
  }
  const message =
    params.has('username') || params.has('password')
      ? 'Invalid username or password'
      : 'Please log in';
  return { ok: false, refusal: { fields: { message, errorCode: '403' }, simple: message } };
}

/** The key a call carries, in YOURLS's order of precedence; undefined: none hop can check. */
function secretOf(params: YourlsParams): string | undefined {
  const signature = params.get('signature');
  const timestamp = params.get('timestamp');
  if (!isPhpEmpty(signature) && !isPhpEmpty(timestamp)) return undefined;
  if (!isPhpEmpty(signature) && timestamp === undefined) return signature;
  const password = params.get('password');
  if (!isPhpEmpty(params.get('username')) && !isPhpEmpty(password)) return password;
  return undefined;
}

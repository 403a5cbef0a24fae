import { fitTitle } from '../../../domain/link-fields.js';
import { PROBLEMS } from '../../problems.js';
import { isReservedAlias } from '../../../domain/alias-rules.js';
import { isHopError, type HopError } from '../../../domain/errors.js';
import { normaliseHostname } from '../../../domain/destination-policy.js';
import type { Link } from '../../../domain/link.js';
import { assertScope } from '../../../domain/principal.js';
import { checkDestinationOrThrow } from '../../../services/links/check-destination-or-throw.js';
import { createLink } from '../../../services/links/create-link.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';
import { retryHeadersOf } from './yourls-error-result.js';
import { findOwnLinkTo } from '../../../services/links/find-own-link-to.js';
import type { YourlsCall } from './yourls-call.js';
import { clicksOf } from './link-clicks.js';
import { UNKNOWN_CREATOR_IP, yourlsTimestamp, yourlsTitle } from './yourls-link-fields.js';
import { isPhpEmpty } from './yourls-params.js';
import type { YourlsFields, YourlsResult } from './yourls-result.js';

/**
 * `action=shorturl` (`yourls_add_new_link`): checks in YOURLS's order (the URL, a loop, a
 * long URL the caller already shortened, the keyword), then hop's createLink on the
 * domain the call came to. Every answer carries YOURLS's five status keys first.
 */
export async function shortenUrl(call: YourlsCall): Promise<YourlsResult> {
  assertScope(call.principal, 'links:write');
  const { deps, params } = call;
  const url = params.get('url') ?? '';
  if (url === '' || url === 'http://' || url === 'https://') {
    return failure('error:nourl', 'Missing or malformed URL');
  }
  let destination: string;
  try {
    destination = checkDestinationOrThrow(url, deps.linkService.destinationPolicy);
  } catch (error) {
    return refusedUrl(call, url, error);
  }
  // YOURLS_UNIQUE_URLS, on by default: a long URL the caller has a link to is answered
  // with that link (ADR 0135).
  const existing = await findOwnLinkTo(
    call.deps.linkService,
    call.principal,
    destination,
    call.host,
  );
  if (existing !== null) return alreadyStored(call, existing, destination);

  const keyword = params.get('keyword');
  const title = params.get('title');
  try {
    const created = await createLink(
      deps.linkService,
      call.principal,
      {
        destination: url,
        alias: isPhpEmpty(keyword) ? null : keyword,
        // YOURLS stores any title (a `text` column): one over hop's bound is cut, not refused.
        title: isPhpEmpty(title) ? null : fitTitle(title),
        domain: call.host,
      },
      { client: call.client },
    );
    return { ...added(call, created.link), headers: rateLimitHeaders(created.quotas) };
  } catch (error) {
    return refusedCreate(call, url, keyword ?? '', error);
  }
}

function added(call: YourlsCall, link: Link): YourlsResult {
  const shorturl = call.deps.domainRoutes.shortUrlOf(link.domain, link.code);
  const title = yourlsTitle(link);
  return {
    fields: {
      status: 'success',
      code: '',
      message: `${trimLongString(link.destination)} added to database`,
      errorCode: '',
      statusCode: '200',
      url: {
        keyword: link.code,
        url: link.destination,
        title,
        date: yourlsTimestamp(link.createdAt),
        ip: UNKNOWN_CREATOR_IP,
      },
      title,
      shorturl,
    },
    simple: shorturl,
  };
}

/** `error:url`, still HTTP 400, with the existing link; `simple` is its short URL. */
async function alreadyStored(
  call: YourlsCall,
  link: Link,
  destination: string,
): Promise<YourlsResult> {
  const routes = call.deps.domainRoutes;
  const shorturl = routes.shortUrlOf(link.domain, link.code);
  const title = yourlsTitle(link);
  const clicks = await clicksOf(call.deps, link);
  const message = `${trimLongString(destination)} already exists in database (short URL: ${shorturl.replace(/^https?:\/\//, '')})`;
  return {
    fields: {
      ...statusKeys('error:url', message),
      url: {
        keyword: link.code,
        url: destination,
        title,
        date: yourlsTimestamp(link.createdAt),
        ip: UNKNOWN_CREATOR_IP,
        clicks: String(clicks),
      },
      title,
      shorturl,
    },
    simple: shorturl,
  };
}

/** A URL hop's destination rules refuse: `error:noloop` for one of our own hosts. */
function refusedUrl(call: YourlsCall, url: string, error: unknown): YourlsResult {
  if (!isHopError(error) || error.kind !== 'invalid-destination') throw error;
  const ownHosts = call.deps.linkService.destinationPolicy.ownHosts;
  if (ownHosts.includes(hostnameOf(url))) return failure('error:noloop', 'URL is a short URL');
  return failure('error:nourl', error.detail);
}

function refusedCreate(
  call: YourlsCall,
  url: string,
  keyword: string,
  error: unknown,
): YourlsResult {
  if (!isHopError(error)) throw error;
  switch (error.kind) {
    case 'invalid-destination':
      return refusedUrl(call, url, error);
    case 'alias-taken':
      return keywordTaken(keyword);
    case 'invalid-alias':
      // hop's alias rules (ADR 0135): a reserved word reads as YOURLS's own refusal.
      return isReservedAlias(keyword)
        ? keywordTaken(keyword)
        : failure('error:keyword', error.detail);
    case 'rate-limited':
      return withRetry(
        failure('error:flood', 'Too many URLs added too fast. Slow down please.', '429'),
        error,
      );
    case 'code-space-exhausted':
    case 'code-pool-exhausted':
    case 'store-unavailable':
      return withRetry(failure('error:concurrency', error.detail, '503'), error);
    case 'unauthorized':
    case 'forbidden':
    case 'insufficient-scope':
      throw error;
    default: {
      // Any other refusal keeps shorturl's five keys and its empty `simple` body.
      const status = PROBLEMS[error.kind].status;
      if (status >= 500) throw error;
      return failure(`error:${error.kind}`, error.detail);
    }
  }
}

function keywordTaken(keyword: string): YourlsResult {
  return failure('error:keyword', `Short URL ${keyword} already exists in database or is reserved`);
}

function withRetry(result: YourlsResult, error: HopError): YourlsResult {
  return { ...result, headers: retryHeadersOf(error) };
}

/** YOURLS's five keys, always first: `status`, `code`, `message`, `errorCode`, `statusCode`. */
function statusKeys(code: string, message: string, status = '400'): YourlsFields {
  return { status: 'fail', code, message, errorCode: status, statusCode: status };
}

/** A refused create; `simple` is empty (the browser extension reads that as "key in use"). */
function failure(code: string, message: string, status = '400'): YourlsResult {
  return { fields: statusKeys(code, message, status), simple: '' };
}

function hostnameOf(url: string): string {
  try {
    return normaliseHostname(url);
  } catch {
    return '';
  }
}

/** `yourls_trim_long_string`: at most 60 characters, the last five `[...]`. */
function trimLongString(text: string): string {
  // mb_substr counts code points, as Array.from does.
  const characters = Array.from(text);
  return characters.length > 60 ? `${characters.slice(0, 55).join('')}[...]` : text;
}

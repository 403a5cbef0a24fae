import { findNamedLink } from './find-named-link.js';
import type { YourlsCall } from './yourls-call.js';
import { yourlsTitle } from './yourls-link-fields.js';
import type { YourlsResult } from './yourls-result.js';

/** `action=expand` (`yourls_api_expand`): the long URL of a short URL or keyword. */
export async function expandShortUrl(call: YourlsCall): Promise<YourlsResult> {
  const { keyword, link } = await findNamedLink(call);
  if (link === null) {
    return {
      fields: { keyword, message: 'Error: short URL not found', errorCode: '404' },
      simple: 'not found',
    };
  }
  return {
    fields: {
      keyword: link.code,
      shorturl: call.deps.domainRoutes.shortUrlOf(link.domain, link.code),
      longurl: link.destination,
      title: yourlsTitle(link),
      message: 'success',
      statusCode: '200',
    },
    simple: link.destination,
  };
}

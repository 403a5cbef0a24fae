import type { IncomingMessage, ServerResponse } from 'node:http';
import { isNamed } from './click-headers.js';
import { preparedProblem } from './prepared-problem.js';
import { PROBLEMS, type ProblemKind } from './problems.js';

/** Far more than a form with a 128-character password needs, even percent-encoded. */
export const MAX_FORM_BYTES = 4096;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Reads the password form's body (issue 21) from a raw request: `password` from an
 * `application/x-www-form-urlencoded` body of at most MAX_FORM_BYTES, or null when the body
 * has no such field. Anything else is answered here, and `onPassword` is not called: 415
 * problem+json for another type, 413 for a larger body (then the connection is closed,
 * rather than read to its end). A request that breaks off is simply dropped.
 */
export function readPasswordForm(
  request: IncomingMessage,
  response: ServerResponse,
  onPassword: (password: string | null) => void,
): void {
  const { contentType, contentLength } = bodyHeaders(request.rawHeaders);
  if (!isFormType(contentType)) {
    writeProblem(response, 'unsupported-media-type', `The form must be sent as ${FORM_TYPE}.`);
    request.resume();
    return;
  }
  if (contentLength !== undefined && contentLength > MAX_FORM_BYTES) {
    refuseTooLarge(request, response);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  request.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > MAX_FORM_BYTES) {
      done = true;
      refuseTooLarge(request, response);
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (done) return;
    done = true;
    onPassword(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('password'));
  });
  request.on('error', () => {
    done = true;
  });
}

function bodyHeaders(rawHeaders: readonly string[]): {
  contentType: string | undefined;
  contentLength: number | undefined;
} {
  let contentType: string | undefined;
  let contentLength: number | undefined;
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] ?? '';
    if (contentType === undefined && isNamed(name, 'content-type')) {
      contentType = rawHeaders[index + 1];
    } else if (contentLength === undefined && isNamed(name, 'content-length')) {
      contentLength = Number(rawHeaders[index + 1]);
    }
  }
  return { contentType, contentLength };
}

/** `application/x-www-form-urlencoded`, with any parameters (`; charset=UTF-8`). */
function isFormType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim();
  return type.toLowerCase() === FORM_TYPE;
}

function refuseTooLarge(request: IncomingMessage, response: ServerResponse): void {
  writeProblem(
    response,
    'payload-too-large',
    `The form may be at most ${MAX_FORM_BYTES} bytes.`,
    // The rest of the body is not read: the connection ends with this answer.
    () => request.socket.destroy(),
  );
}

function writeProblem(
  response: ServerResponse,
  kind: ProblemKind,
  detail: string,
  then?: () => void,
): void {
  const problem = preparedProblem(kind, detail);
  const headers =
    then === undefined ? problem.headers : { ...problem.headers, connection: 'close' };
  response.writeHead(PROBLEMS[kind].status, headers);
  response.end(problem.body, then);
}

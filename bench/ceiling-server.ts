import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering the same 302 as hop from a Map, with the
 * same header set as hop's redirect front (src/http/redirect-front.ts), Content-Length
 * included on both answers so neither is chunked. Nothing real can be faster in Node on
 * this machine; hop is measured against it side by side in the same run.
 *
 * `X-Robots-Tag: noindex` too: hop sends it on every redirect of a link that is not
 * crawlable (issue 22, ADR 0121), every link the bench seeds. The ceiling lacked it from
 * issue 22 until 2026-12-07, and its figures before then are against three headers, not
 * four (BENCHMARKS.md, 2026-12-07).
 */
const [codesFile, portText] = process.argv.slice(2);
if (codesFile === undefined || portText === undefined) {
  throw new Error('usage: ceiling-server <codes file> <port>');
}
const destinations = new Map<string, string>();
readFileSync(codesFile, 'utf8')
  .split('\n')
  .forEach((code, i) => {
    if (code !== '') destinations.set(code, `https://seed.example/${i}`);
  });
const notFoundBody = JSON.stringify({
  type: 'urn:hop:problem:not-found',
  title: 'Not Found',
  status: 404,
  detail: 'There is no link with this code.',
});
const notFoundHeaders = {
  'content-type': 'application/problem+json',
  'content-length': String(Buffer.byteLength(notFoundBody)),
  'cache-control': 'no-store',
};

createServer((request, response) => {
  const destination = destinations.get((request.url ?? '/').slice(1));
  if (destination === undefined) {
    response.writeHead(404, notFoundHeaders);
    response.end(notFoundBody);
    return;
  }
  response.writeHead(302, {
    location: destination,
    'cache-control': 'private, no-store',
    'content-length': '0',
    'x-robots-tag': 'noindex',
  });
  response.end();
}).listen(Number(portText), '127.0.0.1', () => {
  process.stdout.write('ceiling listening\n');
});

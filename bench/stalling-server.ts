import { createServer } from 'node:http';

/**
 * A test target for the open-loop driver, not part of `npm run bench`: answers every
 * request with an empty 302 at once, but blocks its event loop for STALL ms every
 * PERIOD ms, as a GC pause or a slow synchronous call would. Open-loop percentiles must
 * show the stall; closed-loop ones mostly hide it.
 *
 *   node --import tsx bench/stalling-server.ts <port> [stall ms = 50] [period ms = 500]
 */
const [portText, stallText = '50', periodText = '500'] = process.argv.slice(2);
if (portText === undefined) throw new Error('usage: stalling-server <port> [stall ms] [period ms]');
const stallMs = Number(stallText);

setInterval(() => {
  const until = performance.now() + stallMs;
  while (performance.now() < until) {
    // Busy on purpose: nothing else runs in this process meanwhile.
  }
}, Number(periodText));

createServer((_request, response) => {
  response.writeHead(302, {
    location: 'https://seed.example/0',
    'cache-control': 'private, no-store',
    'content-length': '0',
  });
  response.end();
}).listen(Number(portText), '127.0.0.1', () => {
  process.stdout.write('stalling server listening\n');
});

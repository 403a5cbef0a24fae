/**
 * A code scanner, for the `scanner` scenario: GETs of random 7-character base62 codes (as
 * good as unknown: a few thousand links in a space of 62^7) at a fixed rate, open loop,
 * from its own source address, so the server sees a second client beside the visitors.
 *
 *   node --import tsx bench/scanner-load.ts --url http://127.0.0.1:18580 --rate 5000 \
 *     [--connections 16] [--local-address 127.0.0.2]
 *
 * The source address is the socket's own (localAddress): on Linux any 127.0.0.0/8 address
 * works on loopback, and the server's socket then really sees it as the peer. Connecting
 * *to* another loopback address would not change the source.
 *
 * Requests are due at start + i/rate; each goes out on a connection with nothing in
 * flight (keep-alive, no pipelining). When all are busy it waits in a shared backlog and
 * leaves as soon as one answers, so the rate is kept whenever the server allows it.
 *
 * Driven by its parent over stdin/stdout: it prints `ready` once its connections are up
 * and it is sending; a line `mark` on stdin starts the measured window, `stop` ends it.
 * It then prints one JSON line (ScannerReport) of what happened in the window and exits.
 * Timers, not a busy loop: it shares the load core with wrk and must not spin on it.
 */
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { HttpResponseParser } from './support/http-response-parser.js';

/** What the scanner did in the measured window. */
export interface ScannerReport {
  readonly seconds: number;
  readonly sent: number;
  /** Answers per second in the window. */
  readonly answeredPerSecond: number;
  readonly notFound: number;
  readonly throttled: number;
  /** Any other status (a 503 from load shedding, say), by status. */
  readonly other: Readonly<Record<string, number>>;
  /** Requests lost with their connection. */
  readonly failed: number;
  /** Requests due but not sent at the end, every connection waiting for an answer. */
  readonly backlog: number;
  /** This process's own CPU in the window, user + system seconds per second. */
  readonly cpuPerSecond: number;
  /** Answers before the window, since the process started: 404s and 429s. */
  readonly beforeWindow: { readonly notFound: number; readonly throttled: number };
  /** 404s this process had received when its first 429 came; null if none came. */
  readonly notFoundBeforeFirstThrottle: number | null;
}

const RECONNECT_DELAY_MS = 10;
const READ_BUFFER_BYTES = 16 * 1024;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    url: { type: 'string' },
    rate: { type: 'string' },
    connections: { type: 'string', default: '16' },
    'local-address': { type: 'string', default: '127.0.0.2' },
  },
  strict: true,
});
if (values.url === undefined || values.rate === undefined) {
  throw new Error('usage: scanner-load --url URL --rate R [--connections N] [--local-address A]');
}
const url = new URL(values.url);
const rate = Number(values.rate);
const connectionCount = Math.round(Number(values.connections));
if (!(rate > 0) || !(connectionCount > 0)) throw new Error('--rate and --connections must be > 0');
const localAddress = values['local-address'];
const intervalMs = 1000 / rate;

interface Counters {
  sent: number;
  notFound: number;
  throttled: number;
  failed: number;
  other: Record<string, number>;
}
const counters: Counters = { sent: 0, notFound: 0, throttled: 0, failed: 0, other: {} };
/** Requests due and not yet sent. */
let backlog = 0;
let notFoundBeforeFirstThrottle: number | null = null;
let stopping = false;
const connections: ScannerConnection[] = [];

function nextRequest(): Buffer {
  let code = '';
  for (let i = 0; i < 7; i++) code += ALPHABET.charAt(Math.floor(Math.random() * 62));
  return Buffer.from(`GET /${code} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, 'latin1');
}

/** One keep-alive connection from `localAddress`, one request in flight at most. */
class ScannerConnection {
  busy = false;
  private connected = false;
  private socket: Socket;
  private readonly parser = new HttpResponseParser();
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly onResponse = (status: number) => {
    this.busy = false;
    if (status === 404) counters.notFound++;
    else if (status === 429) {
      notFoundBeforeFirstThrottle ??= counters.notFound;
      counters.throttled++;
    } else counters.other[status] = (counters.other[status] ?? 0) + 1;
    takeFromBacklog(this);
  };

  constructor(private readonly onUp: () => void) {
    this.socket = this.open();
  }

  send(): void {
    this.busy = true;
    counters.sent++;
    this.socket.write(nextRequest());
  }

  get usable(): boolean {
    return this.connected && !this.busy;
  }

  private open(): Socket {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 80),
      localAddress,
      noDelay: true,
      onread: {
        buffer: this.readBuffer,
        callback: (bytes) => {
          this.parser.push(this.readBuffer.subarray(0, bytes), this.onResponse);
          return true;
        },
      },
    });
    socket.on('connect', () => {
      this.connected = true;
      this.onUp();
      takeFromBacklog(this);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.connected = false;
      this.parser.reset();
      if (this.busy) counters.failed++;
      this.busy = false;
      if (!stopping) {
        setTimeout(() => {
          this.socket = this.open();
        }, RECONNECT_DELAY_MS);
      }
    });
    return socket;
  }

  close(): void {
    this.socket.destroy();
  }
}

function takeFromBacklog(connection: ScannerConnection): void {
  if (backlog > 0 && connection.usable) {
    backlog--;
    connection.send();
  }
}

let up = 0;
await new Promise<void>((resolve) => {
  const onUp = () => {
    if (++up === connectionCount) resolve();
  };
  for (let i = 0; i < connectionCount; i++) connections.push(new ScannerConnection(onUp));
});

const startedAt = performance.now();
let due = 0;
const tick = () => {
  const now = performance.now();
  const dueNow = Math.floor((now - startedAt) / intervalMs) + 1;
  backlog += dueNow - due;
  due = dueNow;
  for (const connection of connections) {
    if (backlog === 0) break;
    takeFromBacklog(connection);
  }
  if (!stopping) setTimeout(tick, 1);
};
tick();
process.stdout.write('ready\n');

interface Snapshot {
  readonly at: number;
  readonly cpu: NodeJS.CpuUsage;
  readonly counters: Counters;
}
const snapshot = (): Snapshot => ({
  at: performance.now(),
  cpu: process.cpuUsage(),
  counters: { ...counters, other: { ...counters.other } },
});
let mark: Snapshot | null = null;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'mark') mark = snapshot();
  if (line !== 'stop') continue;
  const end = snapshot();
  const from = mark ?? { at: startedAt, cpu: { user: 0, system: 0 }, counters: emptyCounters() };
  stopping = true;
  const seconds = (end.at - from.at) / 1000;
  const other: Record<string, number> = {};
  for (const [status, count] of Object.entries(end.counters.other)) {
    const delta = count - (from.counters.other[status] ?? 0);
    if (delta > 0) other[status] = delta;
  }
  const answered =
    end.counters.notFound -
    from.counters.notFound +
    end.counters.throttled -
    from.counters.throttled +
    Object.values(other).reduce((sum, count) => sum + count, 0);
  const report: ScannerReport = {
    seconds,
    sent: end.counters.sent - from.counters.sent,
    answeredPerSecond: answered / seconds,
    notFound: end.counters.notFound - from.counters.notFound,
    throttled: end.counters.throttled - from.counters.throttled,
    other,
    failed: end.counters.failed - from.counters.failed,
    backlog,
    cpuPerSecond: (end.cpu.user - from.cpu.user + end.cpu.system - from.cpu.system) / 1e6 / seconds,
    beforeWindow: { notFound: from.counters.notFound, throttled: from.counters.throttled },
    notFoundBeforeFirstThrottle,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  for (const connection of connections) connection.close();
  process.exit(0);
}

function emptyCounters(): Counters {
  return { sent: 0, notFound: 0, throttled: 0, failed: 0, other: {} };
}

import { Agent, request } from 'node:http';

export interface ClickLoadResult {
  /** Requests answered with a redirect. */
  readonly redirected: number;
  /** Requests that failed or were answered otherwise. */
  readonly failed: number;
}

/** Sends `count` GETs of `url`, `concurrency` at a time over kept-alive connections. */
export async function sendClicks(
  url: string,
  count: number,
  concurrency: number,
  headers: Record<string, string> = {},
): Promise<ClickLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let redirected = 0;
  let failed = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const status = await get(url, agent, headers);
      if (status >= 300 && status < 400) redirected++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return { redirected, failed };
}

export interface RunningClickLoad {
  /** Requests sent so far (answered or not). */
  readonly sent: () => number;
  /** Times (Date.now()) at which each redirect so far came back. */
  readonly redirectedAt: () => readonly number[];
  /** Stops sending and resolves once every request in flight has settled. */
  stop(): Promise<void>;
}

/** Sends GETs of `url` without pause until stopped (a server may die meanwhile). */
export function startClickLoad(url: string, concurrency: number): RunningClickLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let stopping = false;
  let sent = 0;
  const redirectedAt: number[] = [];
  const worker = async () => {
    while (!stopping) {
      sent++;
      const status = await get(url, agent, {});
      if (status >= 300 && status < 400) redirectedAt.push(Date.now());
      else if (status === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const workers = Promise.all(Array.from({ length: concurrency }, worker));
  return {
    sent: () => sent,
    redirectedAt: () => redirectedAt,
    stop: async () => {
      stopping = true;
      await workers;
      agent.destroy();
    },
  };
}

/** The response status, or 0 when the request failed. */
function get(url: string, agent: Agent, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    outgoing.on('error', () => resolve(0));
    outgoing.end();
  });
}

/**
 * `hop serve`'s integrations thread (ADR 0132): webhook fan-out and delivery, and the
 * event streams' reading and rendering, on connections of its own, at the lowest CPU
 * priority. See integrations-thread.ts for the other side.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { JobScheduler } from '../jobs/job-scheduler.js';
import { reloadDomains } from '../jobs/reload-domains.js';
import { createLogger } from '../observability/logger.js';
import { systemClock } from '../ports/clock.js';
import { HopError } from '../domain/errors.js';
import type { EventSubscription } from '../services/events/event-hub.js';
import { ClickEventDemand } from '../services/events/click-event-demand.js';
import { DomainRoutes } from '../services/redirect/domain-routes.js';
import { EVENTS_KEEP_MS } from '../services/webhooks/forget-old-events.js';
import { composeIntegrationWork } from './compose-integration-work.js';
import { FramesToResponse } from './frames-to-response.js';
import { writeThrough } from './spool-write-through.js';
import type {
  FromIntegrationsThread,
  IntegrationsThreadData,
  ToIntegrationsThread,
} from './integrations-thread.js';
import { openStore } from './open-store.js';
import { openWhenReachable } from './open-when-reachable.js';

/**
 * The lowest priority (nice 19): the scheduler weighs the thread 15 against a nice-0
 * thread's 1024, so it runs mostly on CPU that nothing else wants.
 */
const LOWEST_PRIORITY = 19;
/** The pause between tries of a store that did not answer the thread's start. */
const STORE_RETRY_MS = 1_000;

const port = parentPort;
if (port === null) throw new Error('the integrations thread runs as a worker');
const { config, spoolWrites } = workerData as IntegrationsThreadData;
const logger = createLogger(config.logLevel).child({ thread: 'integrations' });

function post(message: FromIntegrationsThread): void {
  port?.postMessage(message);
}

/** The priority this thread started with: the server's. */
const SERVER_PRIORITY = getPriority();

/**
 * Lowers this thread's priority once it has started: its start (loading modules, opening
 * the store, about 170 ms of CPU here) runs at the server's, so that a server stopped soon
 * after it started, on a machine busy with other work, never waits for a thread starved of
 * the CPU to finish starting (a start at nice 19 outlasted HOP_SHUTDOWN_TIMEOUT under CI's
 * load: ADR 0143).
 *
 * Linux keeps a nice value per thread, and setpriority(2) on "this process" sets the
 * calling thread's: this one only. Elsewhere it would lower the whole server's.
 * Scaled out it keeps the server's priority: other instances take over a delivery whose
 * lease (HOP_WEBHOOK_TIMEOUT + 5 s) runs out, and a thread left waiting for the CPU past
 * it would see its delivery sent twice (ADR 0132).
 */
function lowerPriority(): void {
  if (config.integrationsPriority === 'server') {
    logger.debug('the integrations thread runs at the server priority (HOP_INTEGRATIONS_PRIORITY)');
  } else if (config.database !== undefined) {
    logger.debug('the integrations thread runs at the server priority (scaled out)');
  } else if (process.platform === 'linux') {
    try {
      setPriority(LOWEST_PRIORITY);
    } catch (error) {
      logger.warn({ err: error }, 'the integrations thread could not lower its priority');
    }
  } else {
    logger.info('the integrations thread runs at the server priority on this platform');
  }
}

/**
 * Back to the server's priority to stop, where the system allows it (root, or a nice
 * limit that permits it; otherwise it stops at the priority it has), for the same reason.
 */
function restorePriority(): void {
  if (process.platform !== 'linux' || getPriority() === SERVER_PRIORITY) return;
  try {
    setPriority(SERVER_PRIORITY);
  } catch {
    // Not allowed here: the stop runs at the lowest priority, as it did before.
  }
}

/** Messages that came while the thread was starting: handled in order once it has. */
const early: ToIntegrationsThread[] = [];
const whileStarting = (message: ToIntegrationsThread) => {
  // Nothing is open yet to close or finish: a stop (the server's SIGTERM) ends it at once.
  if (message.kind === 'stop') process.exit(0);
  early.push(message);
};
port.on('message', whileStarting);

/**
 * The thread's store and routes, once the database answers (ADR 0153): the server opened
 * the same store before it started this thread, so a failure now is an outage begun since,
 * a warning to wait out, not a thread to fail and start again every second.
 */
const { opened, domainRoutes } = await openWhenReachable(
  async () => {
    const store = await openStore(config, logger, false);
    try {
      const routes = new DomainRoutes(store.store.domains, config.publicUrl);
      await routes.reload();
      return { opened: store, domainRoutes: routes };
    } catch (error) {
      await store.store.close().catch(() => undefined);
      throw error;
    }
  },
  {
    retryMs: STORE_RETRY_MS,
    onWaiting: (error) => {
      logger.warn(
        { err: error },
        'the integrations thread waits for its store; trying every second',
      );
    },
    onReached: () => {
      logger.info('the integrations thread reached its store');
    },
  },
);
const store = opened.store;
// Touched here at each poll and fan-out step; `hop serve` hears of it once a minute.
const demand = new ClickEventDemand({
  clock: systemClock,
  keepMs: EVENTS_KEEP_MS,
  onRaise: () => {
    post({ kind: 'click-events-wanted' });
  },
});
const clicksWanted = () => {
  demand.touch();
};
// Planned here, written by the aggregator thread (ADR 0132); without it (a thread started
// with no aggregator thread), planned and written here.
const spool =
  opened.kind === 'sqlite' && spoolWrites !== null
    ? opened.store.foldLogSpoolWritingThrough(writeThrough(spoolWrites))
    : store.foldLogSpool;
const jobs = new JobScheduler(logger);
jobs.start(reloadDomains(domainRoutes));
const work = composeIntegrationWork(config, store, systemClock, logger, {
  domainRoutes,
  clicksWanted,
  spool,
});
const streams = work.streams;
let jobsStarted = false;

const outgoing = new Map<number, FramesToResponse>();
const subscriptions = new Map<number, EventSubscription>();

async function open(id: number, message: Extract<ToIntegrationsThread, { kind: 'open' }>) {
  const frames = new FramesToResponse(id, post, () => {
    outgoing.delete(id);
    subscriptions.delete(id);
  });
  outgoing.set(id, frames);
  try {
    subscriptions.set(id, await streams.open(message.principal, message.from, frames));
    post({ kind: 'opened', id });
  } catch (error) {
    outgoing.delete(id);
    const refused =
      error instanceof HopError
        ? { kind: error.kind, detail: error.detail, retryable: error.retryable }
        : {
            kind: 'store-unavailable' as const,
            detail: 'The event logs cannot be read just now.',
            retryable: true,
          };
    if (!(error instanceof HopError)) logger.warn({ err: error }, 'a stream could not open');
    post({ kind: 'refused', id, error: refused });
  }
}

async function stop(): Promise<void> {
  restorePriority();
  await jobs.stop();
  // Streams end; attempts in flight finish, each within HOP_WEBHOOK_TIMEOUT, and are recorded.
  await work.stop();
  await store.close();
  // Ends this thread only (not the process), whatever handles a loader left open.
  process.exit(0);
}

lowerPriority();
port.off('message', whileStarting);
port.on('message', handle);
for (const message of early.splice(0)) handle(message);

function handle(message: ToIntegrationsThread): void {
  switch (message.kind) {
    case 'open':
      void open(message.id, message);
      return;
    case 'start':
      subscriptions.get(message.id)?.start();
      return;
    case 'close':
      outgoing.get(message.id)?.drop();
      outgoing.delete(message.id);
      subscriptions.get(message.id)?.close();
      subscriptions.delete(message.id);
      return;
    case 'taken':
      outgoing.get(message.id)?.taken(message.size);
      return;
    case 'start-jobs':
      if (jobsStarted) return;
      jobsStarted = true;
      work.start(jobs);
      return;
    case 'close-streams':
      void streams.close().then(() => {
        post({ kind: 'streams-closed' });
      });
      return;
    case 'stop':
      stop().catch((error: unknown) => {
        logger.error({ err: error }, 'the integrations thread could not stop cleanly');
        process.exit(1);
      });
      return;
  }
}

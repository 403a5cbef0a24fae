import { afterFailedAttempt } from '../../domain/webhook-retry.js';
import type { Clock } from '../../ports/clock.js';
import type { WebhookSender } from '../../ports/webhook-sender.js';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  RecordedAttempt,
  WebhookStore,
} from '../../ports/webhook-store.js';
import { webhookHeaders } from './sign-webhook.js';

export interface WebhookDispatcherDeps {
  readonly webhooks: WebhookStore;
  readonly sender: WebhookSender;
  readonly clock: Clock;
  /** In [0, 1): the retries' jitter. */
  readonly random: () => number;
  /** HOP_WEBHOOK_TIMEOUT: one attempt's limit. */
  readonly timeoutMs: number;
  /** HOP_WEBHOOK_RETRY_BASE. */
  readonly retryBaseMs: number;
  /** HOP_WEBHOOK_CONCURRENCY: attempts in flight at once. */
  readonly concurrency: number;
  /** Told when an attempt's outcome could not be stored (its lease then runs out: retried). */
  readonly onError: (error: unknown) => void;
}

/** Longer than an attempt can take, so a live instance never loses the lease mid-attempt. */
export function webhookLeaseMs(timeoutMs: number): number {
  return timeoutMs + 5_000;
}

/**
 * Delivers due webhook deliveries (issue 23, ADR 0128): each round claims as many as there
 * are free slots, leased for longer than an attempt can take, and starts their attempts
 * without waiting for them, so a slow receiver holds a slot, never a request. An instance
 * killed mid-attempt leaves the lease to run out; another claims the delivery again.
 */
export class WebhookDispatcher {
  readonly #deps: WebhookDispatcherDeps;
  readonly #inFlight = new Set<Promise<void>>();
  /**
   * The deliveries whose attempt is in flight here, with the lease this instance holds on
   * each now. A claim round may claim one again when its attempt outlived the lease (the
   * thread left waiting for the CPU: ADR 0132): it takes the new lease for the attempt in
   * flight instead of sending a second.
   */
  readonly #leases = new Map<string, number>();
  /** Attempts waiting to be recorded together. */
  #unrecorded: {
    readonly attempt: RecordedAttempt;
    readonly resolve: (recorded: boolean) => void;
    readonly reject: (error: unknown) => void;
  }[] = [];
  /** Told when an attempt ends: a round waiting for a free slot goes on. */
  #slotWaiters: (() => void)[] = [];
  #stopped = false;

  constructor(deps: WebhookDispatcherDeps) {
    this.#deps = deps;
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Slots free for attempts now (none once stopping). */
  #freeSlots(): number {
    return this.#stopped ? 0 : Math.max(0, this.#deps.concurrency - this.#inFlight.size);
  }

  /**
   * Claims rounds until one finds fewer due deliveries than it had free slots: a round
   * that fills every slot waits for half of them to free and looks again, so a backlog is
   * worked off at the receivers' pace, `concurrency` at a time, not a round per poll. Half:
   * a claim is a write, and one per freed slot cost more than the attempts' own writes.
   */
  async claimWhileDue(stopping: AbortSignal): Promise<void> {
    const enough = Math.ceil(this.#deps.concurrency / 2);
    while (!stopping.aborted && !this.#stopped) {
      const free = this.#freeSlots();
      if (free >= enough && (await this.claimDue()) < free) return;
      await this.#slotFreed();
    }
  }

  #slotFreed(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#slotWaiters.push(resolve));
  }

  /** Claims due deliveries for the free slots and starts their attempts; how many it started. */
  async claimDue(): Promise<number> {
    const free = this.#freeSlots();
    if (free === 0) return 0;
    const now = this.#deps.clock.now();
    const claimed = await this.#deps.webhooks.claimDueDeliveries(
      now,
      now + webhookLeaseMs(this.#deps.timeoutMs),
      free,
    );
    for (const delivery of claimed) {
      if (this.#leases.has(delivery.delivery.id)) {
        this.#leases.set(delivery.delivery.id, delivery.leaseUntil);
        continue;
      }
      if (this.#stopped) {
        // Claimed as the instance began to stop: due again at once, for whoever runs next.
        this.#track(this.#release(delivery));
        continue;
      }
      this.#leases.set(delivery.delivery.id, delivery.leaseUntil);
      this.#track(
        this.#attempt(delivery).finally(() => {
          this.#leases.delete(delivery.delivery.id);
        }),
      );
    }
    return claimed.length;
  }

  /**
   * Stops claiming and waits for the attempts in flight, each bounded by its timeout; their
   * outcomes are recorded as usual.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeSlotWaiters();
    await Promise.all([...this.#inFlight]);
  }

  #track(work: Promise<void>): void {
    const tracked = work.finally(() => {
      this.#inFlight.delete(tracked);
      this.#wakeSlotWaiters();
    });
    this.#inFlight.add(tracked);
  }

  #wakeSlotWaiters(): void {
    const waiters = this.#slotWaiters;
    this.#slotWaiters = [];
    for (const wake of waiters) wake();
  }

  async #attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery } = claimed;
    const deps = this.#deps;
    const timestamp = Math.floor(deps.clock.now() / 1000);
    const response = await deps.sender.send({
      url: claimed.url,
      headers: webhookHeaders(claimed.secret, delivery.messageId, timestamp, delivery.body),
      body: delivery.body,
      timeoutMs: deps.timeoutMs,
    });
    const attemptedAt = deps.clock.now();
    const attempts = delivery.attempts + 1;
    let outcome: AttemptOutcome;
    if (response.kind === 'answered' && response.statusCode >= 200 && response.statusCode < 300) {
      outcome = {
        status: 'delivered',
        attemptedAt,
        statusCode: response.statusCode,
        error: null,
        nextAttemptAt: attemptedAt,
      };
    } else {
      const next = afterFailedAttempt(
        attempts,
        attemptedAt,
        delivery.giveUpAt,
        deps.retryBaseMs,
        deps.random(),
      );
      outcome = {
        ...next,
        attemptedAt,
        statusCode: response.kind === 'answered' ? response.statusCode : null,
        error:
          response.kind === 'answered'
            ? `The receiver answered ${response.statusCode}.`
            : response.error,
      };
    }
    try {
      const leaseUntil = this.#leases.get(delivery.id) ?? claimed.leaseUntil;
      await this.#record({ id: delivery.id, leaseUntil, outcome });
    } catch (error) {
      deps.onError(error);
    }
  }

  /**
   * Records an attempt together with the others that end in the same turn of the event
   * loop: one write for them all (a write per attempt cost more than its POST).
   */
  #record(attempt: RecordedAttempt): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#unrecorded.push({ attempt, resolve, reject });
      if (this.#unrecorded.length === 1) setImmediate(() => void this.#recordTogether());
    });
  }

  async #recordTogether(): Promise<void> {
    const batch = this.#unrecorded;
    this.#unrecorded = [];
    try {
      const recorded = await this.#deps.webhooks.recordAttempts(batch.map((each) => each.attempt));
      batch.forEach((each, index) => {
        each.resolve(recorded[index] ?? false);
      });
    } catch (error) {
      for (const each of batch) each.reject(error);
    }
  }

  async #release(claimed: ClaimedDelivery): Promise<void> {
    try {
      await this.#deps.webhooks.releaseLease(claimed.delivery.id, claimed.leaseUntil);
    } catch (error) {
      this.#deps.onError(error);
    }
  }
}

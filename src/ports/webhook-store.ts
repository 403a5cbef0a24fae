import type {
  DeliveryStatus,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '../domain/webhook.js';

/** A delivery as fan-out makes it: pending, due at once, no attempt yet. */
export interface NewDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly messageId: string;
  readonly eventType: WebhookEventType;
  readonly body: string;
  readonly createdAt: number;
  readonly giveUpAt: number;
}

/** What fan-out decided for the events after a position: their deliveries, and where it got to. */
export interface FanOutPlan {
  readonly deliveries: readonly NewDelivery[];
  /** The position after the events planned for (unchanged: nothing new). */
  readonly position: string;
}

/** A due delivery held by this instance, with what its attempt needs. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery;
  readonly url: string;
  readonly secret: string;
  /** The lease's end as claimed: the token an attempt's outcome is recorded with. */
  readonly leaseUntil: number;
}

/** The statuses a delivery ends in: kept for a while to be listed (and retried), then forgotten. */
export type FinishedStatus = Exclude<DeliveryStatus, 'pending'>;

/** An attempt to record: the delivery, the lease it was made under, and how it went. */
export interface RecordedAttempt {
  readonly id: string;
  readonly leaseUntil: number;
  readonly outcome: AttemptOutcome;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  readonly status: DeliveryStatus;
  readonly attemptedAt: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** When a pending delivery is next due. */
  readonly nextAttemptAt: number;
}

/** Webhooks, their deliveries and the fan-out's positions (issue 23, ADR 0128). */
export interface WebhookStore {
  /** Stores a new webhook. */
  insertWebhook(webhook: Webhook): Promise<void>;
  /** The webhook with this id, or null. */
  findWebhook(id: string): Promise<Webhook | null>;
  /** `owner`'s webhooks (null: everyone's), oldest first. */
  listWebhooks(owner: string | null): Promise<readonly Webhook[]>;
  /** Replaces a webhook's fields; false when it does not exist. */
  updateWebhook(webhook: Webhook): Promise<boolean>;
  /** Deletes a webhook and its deliveries; false when it did not exist. */
  deleteWebhook(id: string): Promise<boolean>;

  /**
   * One fan-out step for `source`: reads its position (`''` before the first), lets `plan`
   * decide the deliveries of the events after it, then stores them and the new position in
   * one transaction. Only one step per source runs at a time across instances; a step that
   * lost a race stores nothing. Returns the deliveries stored.
   */
  fanOut(source: string, plan: (position: string) => Promise<FanOutPlan>): Promise<number>;
  /** `source`'s fan-out position (`''` when it never ran). */
  fanOutPosition(source: string): Promise<string>;

  /**
   * Claims up to `limit` pending deliveries due at `nowMs` of unpaused webhooks that nobody
   * holds (or whose lease ended), leasing each until `leaseUntil`; each is claimed by one
   * caller only.
   */
  claimDueDeliveries(
    nowMs: number,
    leaseUntil: number,
    limit: number,
  ): Promise<readonly ClaimedDelivery[]>;
  /**
   * Records attempts of deliveries, each still leased until its `leaseUntil` (attempts + 1,
   * the lease released), in one transaction; for each, in order, false when its lease was
   * lost (expired and claimed again) and nothing was recorded.
   */
  recordAttempts(attempts: readonly RecordedAttempt[]): Promise<readonly boolean[]>;
  /** Releases a lease without an attempt (at shutdown): the delivery is due at once. */
  releaseLease(id: string, leaseUntil: number): Promise<void>;
  /**
   * Deletes up to `limit` deliveries of `status` whose last attempt was before `beforeMs`,
   * oldest first; how many it deleted. Pending deliveries are never deleted.
   */
  forgetFinishedDeliveries(
    status: FinishedStatus,
    beforeMs: number,
    limit: number,
  ): Promise<number>;
  /** The webhook's deliveries, newest first, those with ids below `before` when given. */
  listDeliveries(
    webhookId: string,
    page: { readonly before: string | null; readonly limit: number },
  ): Promise<readonly WebhookDelivery[]>;
  /** One of the webhook's deliveries, or null. */
  findDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /**
   * Makes a delivery pending and due at `nowMs` with a new give-up time (a manual retry);
   * attempts are kept. Null when it does not exist.
   */
  requeueDelivery(
    webhookId: string,
    deliveryId: string,
    nowMs: number,
    giveUpAt: number,
  ): Promise<WebhookDelivery | null>;
}

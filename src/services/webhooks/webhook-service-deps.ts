import type { WebhookUrlPolicy } from '../../domain/webhook-url-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { WebhookStore } from '../../ports/webhook-store.js';

/** What the webhook use cases need (issue 23, ADR 0128), built once by the composition root. */
export interface WebhookServiceDeps {
  readonly webhooks: WebhookStore;
  readonly clock: Clock;
  readonly urlPolicy: WebhookUrlPolicy;
  /** A new ULID. */
  readonly newId: () => string;
  /** HOP_WEBHOOK_GIVE_UP_AFTER: a manual retry is retried this long again. */
  readonly giveUpAfterMs: number;
  /**
   * An unpaused webhook takes `link.clicked`: click events must be written (ADR 0131).
   * Called before it is stored, so no fold after it was made goes without them.
   */
  readonly clicksWanted?: () => void;
}

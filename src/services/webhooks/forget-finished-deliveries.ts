import type { Clock } from '../../ports/clock.js';
import type { FinishedStatus, WebhookStore } from '../../ports/webhook-store.js';

export interface ForgetDeliveriesDeps {
  readonly webhooks: Pick<WebhookStore, 'forgetFinishedDeliveries'>;
  readonly clock: Clock;
  /** How long after its last attempt a delivery of each finished status is kept. */
  readonly keepMs: Readonly<Record<FinishedStatus, number>>;
}

const FINISHED: readonly FinishedStatus[] = ['delivered', 'failed'];

/**
 * Forgets delivered and failed deliveries past their keeping (HOP_WEBHOOK_KEEP_DELIVERED,
 * HOP_WEBHOOK_KEEP_FAILED; ADR 0128), in batches of `batch` until none is left or it is
 * stopping. Pending ones are never forgotten: they end within HOP_WEBHOOK_GIVE_UP_AFTER.
 * Returns how many it forgot.
 */
export async function forgetFinishedDeliveries(
  deps: ForgetDeliveriesDeps,
  batch: number,
  stopping: AbortSignal,
): Promise<number> {
  const now = deps.clock.now();
  let forgotten = 0;
  for (const status of FINISHED) {
    const before = now - deps.keepMs[status];
    while (!stopping.aborted) {
      const deleted = await deps.webhooks.forgetFinishedDeliveries(status, before, batch);
      forgotten += deleted;
      if (deleted < batch) break;
    }
  }
  return forgotten;
}

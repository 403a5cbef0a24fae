import { HopError } from '../../domain/errors.js';
import { canSeeLinkOf, type Principal } from '../../domain/principal.js';
import type { Webhook } from '../../domain/webhook.js';
import type { WebhookServiceDeps } from './webhook-service-deps.js';

/** The webhook, or `not-found` for one that does not exist and another owner's alike. */
export async function findVisibleWebhookOrThrow(
  deps: WebhookServiceDeps,
  principal: Principal,
  id: string,
): Promise<Webhook> {
  const webhook = await deps.webhooks.findWebhook(id);
  if (webhook === null || !canSeeLinkOf(principal, webhook.owner)) {
    throw new HopError('not-found', 'No webhook with this id.');
  }
  return webhook;
}

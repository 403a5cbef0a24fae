import { HopError } from '../../domain/errors.js';
import { assertScope, type Principal } from '../../domain/principal.js';
import { takesClicks, type Webhook } from '../../domain/webhook.js';
import { findVisibleWebhookOrThrow } from './find-visible-webhook.js';
import { newWebhookSecret } from './webhook-secret.js';
import {
  webhookDescriptionOrThrow,
  webhookEventsOrThrow,
  webhookUrlOrThrow,
} from './webhook-fields.js';
import type { WebhookServiceDeps } from './webhook-service-deps.js';

export interface CreateWebhookInput {
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null | undefined;
}

/**
 * Adds a webhook for the caller (issue 23). An admin's sees every owner's links, anyone
 * else's only its owner's. The answer holds the secret; later reads do not.
 */
export async function createWebhook(
  deps: WebhookServiceDeps,
  principal: Principal,
  input: CreateWebhookInput,
): Promise<Webhook> {
  assertScope(principal, 'webhooks:write');
  const url = webhookUrlOrThrow(input.url, deps.urlPolicy);
  const events = webhookEventsOrThrow(input.events);
  const description = webhookDescriptionOrThrow(input.description);
  const now = deps.clock.now();
  const webhook: Webhook = {
    id: deps.newId(),
    owner: principal.owner,
    allLinks: principal.admin,
    url,
    events,
    description,
    secret: newWebhookSecret(),
    paused: false,
    createdAt: now,
    updatedAt: now,
  };
  if (takesClicks(webhook)) deps.clicksWanted?.();
  await deps.webhooks.insertWebhook(webhook);
  return webhook;
}

/** The caller's webhooks (an admin's: everyone's), oldest first. */
export async function listWebhooks(
  deps: WebhookServiceDeps,
  principal: Principal,
): Promise<readonly Webhook[]> {
  assertScope(principal, 'webhooks:write');
  return deps.webhooks.listWebhooks(principal.admin ? null : principal.owner);
}

export async function getWebhook(
  deps: WebhookServiceDeps,
  principal: Principal,
  id: string,
): Promise<Webhook> {
  assertScope(principal, 'webhooks:write');
  return findVisibleWebhookOrThrow(deps, principal, id);
}

export interface WebhookPatch {
  readonly url?: string | undefined;
  readonly events?: readonly string[] | undefined;
  readonly description?: string | null | undefined;
  readonly paused?: boolean | undefined;
}

/** Changes what the patch names; a field left out keeps its value. */
export async function updateWebhook(
  deps: WebhookServiceDeps,
  principal: Principal,
  id: string,
  patch: WebhookPatch,
): Promise<Webhook> {
  assertScope(principal, 'webhooks:write');
  const stored = await findVisibleWebhookOrThrow(deps, principal, id);
  const changed: Webhook = {
    ...stored,
    url: patch.url === undefined ? stored.url : webhookUrlOrThrow(patch.url, deps.urlPolicy),
    events: patch.events === undefined ? stored.events : webhookEventsOrThrow(patch.events),
    description:
      patch.description === undefined
        ? stored.description
        : webhookDescriptionOrThrow(patch.description),
    paused: patch.paused ?? stored.paused,
    updatedAt: deps.clock.now(),
  };
  if (takesClicks(changed)) deps.clicksWanted?.();
  await saveOrThrow(deps, changed);
  return changed;
}

/** Deletes the webhook and its deliveries. */
export async function deleteWebhook(
  deps: WebhookServiceDeps,
  principal: Principal,
  id: string,
): Promise<void> {
  assertScope(principal, 'webhooks:write');
  const stored = await findVisibleWebhookOrThrow(deps, principal, id);
  if (!(await deps.webhooks.deleteWebhook(stored.id))) throw notFound();
}

/**
 * A new secret at once: deliveries from now on, retries of older ones included, are signed
 * with it (the old one stops working; ADR 0128).
 */
export async function rotateWebhookSecret(
  deps: WebhookServiceDeps,
  principal: Principal,
  id: string,
): Promise<Webhook> {
  assertScope(principal, 'webhooks:write');
  const stored = await findVisibleWebhookOrThrow(deps, principal, id);
  const changed: Webhook = { ...stored, secret: newWebhookSecret(), updatedAt: deps.clock.now() };
  await saveOrThrow(deps, changed);
  return changed;
}

async function saveOrThrow(deps: WebhookServiceDeps, webhook: Webhook): Promise<void> {
  if (!(await deps.webhooks.updateWebhook(webhook))) throw notFound();
}

function notFound(): HopError {
  return new HopError('not-found', 'No webhook with this id.');
}

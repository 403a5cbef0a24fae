import { HopError, type FieldProblem } from '../../domain/errors.js';
import { isWebhookEventType, type WebhookEventType } from '../../domain/webhook.js';
import { checkWebhookUrl, type WebhookUrlPolicy } from '../../domain/webhook-url-policy.js';

/** Longest description kept. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;

/** The URL as stored, or `invalid-webhook-url` saying why (issue 23: safe egress). */
export function webhookUrlOrThrow(input: string, policy: WebhookUrlPolicy): string {
  const verdict = checkWebhookUrl(input, policy);
  if (verdict.ok) return verdict.url;
  throw new HopError('invalid-webhook-url', verdict.reason, {
    fields: [{ field: 'url', detail: verdict.reason }],
  });
}

/** The subscribed events, each once, or `invalid-request` naming the unknown ones. */
export function webhookEventsOrThrow(input: readonly string[]): readonly WebhookEventType[] {
  const problems: FieldProblem[] = [];
  if (input.length === 0) {
    problems.push({ field: 'events', detail: 'Subscribe to at least one event.' });
  }
  input.forEach((event, index) => {
    if (!isWebhookEventType(event)) {
      problems.push({
        field: `events[${index}]`,
        detail: `Unknown event type "${event}": link.created, link.updated, link.deleted or link.clicked.`,
      });
    }
  });
  const first = problems[0];
  if (first !== undefined) {
    throw new HopError('invalid-request', first.detail, { fields: problems });
  }
  return [...new Set(input as WebhookEventType[])];
}

/** A description as stored: trimmed, empty is none. */
export function webhookDescriptionOrThrow(input: string | null | undefined): string | null {
  const trimmed = input?.trim() ?? '';
  if (trimmed.length > WEBHOOK_DESCRIPTION_MAX_LENGTH) {
    const detail = `The description is longer than ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`;
    throw new HopError('invalid-request', detail, { fields: [{ field: 'description', detail }] });
  }
  return trimmed === '' ? null : trimmed;
}

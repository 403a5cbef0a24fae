import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks' signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed
 * with the base64-decoded part of the secret after `whsec_`.
 */
export function signWebhook(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt (Standard Webhooks), `timestamp` in seconds. */
export function webhookHeaders(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'hop-webhooks',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, messageId, timestampSeconds, body),
  };
}

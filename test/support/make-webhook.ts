import type { Webhook } from '../../src/domain/webhook.js';
import { BASE_MS, HOUR_MS, makeId } from '../contract/store-factories.js';

/** alice's webhook for `link.created`, made an hour before BASE_MS, with `overrides`. */
export function makeWebhook(overrides: Partial<Webhook>): Webhook {
  return {
    id: makeId(),
    owner: 'alice',
    allLinks: false,
    url: 'https://hooks.example.com/in',
    events: ['link.created'],
    description: null,
    secret: 'whsec_c2VjcmV0',
    paused: false,
    createdAt: BASE_MS - HOUR_MS,
    updatedAt: BASE_MS - HOUR_MS,
    ...overrides,
  };
}

/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { WebhookStore } from '../../ports/webhook-store.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbWebhookStore.
export interface MariaDbWebhookStore extends WebhookStore {}
export class MariaDbWebhookStore {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbWebhookStore>('WebhookStore');
  }
}

/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { ApiKeyStore } from '../../ports/api-key-store.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbApiKeyStore.
export interface MariaDbApiKeyStore extends ApiKeyStore {}
export class MariaDbApiKeyStore {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbApiKeyStore>('ApiKeyStore');
  }
}

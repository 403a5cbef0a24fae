/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { ClickStore } from '../../ports/click-store.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbClickStore.
export interface MariaDbClickStore extends ClickStore {}
export class MariaDbClickStore {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbClickStore>('ClickStore');
  }
}

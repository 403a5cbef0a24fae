/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { DomainStore } from '../../ports/domain-store.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbDomainStore.
export interface MariaDbDomainStore extends DomainStore {}
export class MariaDbDomainStore {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbDomainStore>('DomainStore');
  }
}

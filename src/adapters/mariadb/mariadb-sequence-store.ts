/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { SequenceStore } from '../../ports/sequence-store.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbSequenceStore.
export interface MariaDbSequenceStore extends SequenceStore {}
export class MariaDbSequenceStore {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbSequenceStore>('SequenceStore');
  }
}

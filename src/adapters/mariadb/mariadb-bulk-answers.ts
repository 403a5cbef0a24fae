/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { BulkAnswerStore } from '../../ports/bulk-answers.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbBulkAnswers.
export interface MariaDbBulkAnswers extends BulkAnswerStore {}
export class MariaDbBulkAnswers {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbBulkAnswers>('BulkAnswerStore');
  }
}

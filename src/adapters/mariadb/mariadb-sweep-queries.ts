/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { SweepQueries } from '../../ports/sweep-queries.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbSweepQueries.
export interface MariaDbSweepQueries extends SweepQueries {}
export class MariaDbSweepQueries {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbSweepQueries>('SweepQueries');
  }
}

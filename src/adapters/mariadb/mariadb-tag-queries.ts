/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { TagQueries } from '../../ports/tag-queries.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbTagQueries.
export interface MariaDbTagQueries extends TagQueries {}
export class MariaDbTagQueries {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbTagQueries>('TagQueries');
  }
}

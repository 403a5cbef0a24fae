/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { ClickAnalyticsQueries } from '../../ports/click-analytics-queries.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbClickAnalyticsQueries.
export interface MariaDbClickAnalyticsQueries extends ClickAnalyticsQueries {}
export class MariaDbClickAnalyticsQueries {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbClickAnalyticsQueries>('ClickAnalyticsQueries');
  }
}

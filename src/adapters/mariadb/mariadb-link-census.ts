/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { LinkCensus } from '../../ports/link-census.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbLinkCensus.
export interface MariaDbLinkCensus extends LinkCensus {}
export class MariaDbLinkCensus {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbLinkCensus>('LinkCensus');
  }
}

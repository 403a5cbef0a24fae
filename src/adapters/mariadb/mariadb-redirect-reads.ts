/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { RedirectReads } from '../../ports/redirect-reads.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbRedirectReads.
export interface MariaDbRedirectReads extends RedirectReads {}
export class MariaDbRedirectReads {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbRedirectReads>('RedirectReads');
  }
}

/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { RedirectAllowance } from '../../ports/redirect-allowance.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbRedirectAllowance.
export interface MariaDbRedirectAllowance extends RedirectAllowance {}
export class MariaDbRedirectAllowance {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbRedirectAllowance>('RedirectAllowance');
  }
}

/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { LinkCodeScan } from '../../ports/link-code-scan.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbCodeScan.
export interface MariaDbCodeScan extends LinkCodeScan {}
export class MariaDbCodeScan {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbCodeScan>('LinkCodeScan');
  }
}

/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { VisitLog } from '../../ports/visit-log.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbVisitLog.
export interface MariaDbVisitLog extends VisitLog {}
export class MariaDbVisitLog {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbVisitLog>('VisitLog');
  }
}

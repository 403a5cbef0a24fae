/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { ClickEventLog } from '../../ports/event-log.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbClickEventLog.
export interface MariaDbClickEventLog extends ClickEventLog {}
export class MariaDbClickEventLog {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbClickEventLog>('ClickEventLog');
  }
}

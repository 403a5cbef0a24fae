/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { LinkEventLog } from '../../ports/event-log.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbLinkEventLog.
export interface MariaDbLinkEventLog extends LinkEventLog {}
export class MariaDbLinkEventLog {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbLinkEventLog>('LinkEventLog');
  }
}

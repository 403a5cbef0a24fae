/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { CrawlableLinks } from '../../ports/crawlable-links.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbCrawlableLinks.
export interface MariaDbCrawlableLinks extends CrawlableLinks {}
export class MariaDbCrawlableLinks {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbCrawlableLinks>('CrawlableLinks');
  }
}

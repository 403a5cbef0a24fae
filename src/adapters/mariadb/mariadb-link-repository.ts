/* eslint-disable -- TEMPORARY stub (issue 25), replaced by the real repository */
import type { Pool } from 'mysql2/promise';
import type { LinkRepository } from '../../ports/link-repository.js';
import { notBuilt } from './not-built.js';

// TEMPORARY stub (issue 25): replaced by the real MariaDbLinkRepository.
export interface MariaDbLinkRepository extends LinkRepository {}
export class MariaDbLinkRepository {
  constructor(_pool: Pool) {
    return notBuilt<MariaDbLinkRepository>('LinkRepository');
  }
}

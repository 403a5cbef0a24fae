import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { RedirectTarget } from '../../domain/redirect-target.js';
import type { RedirectReads } from '../../ports/redirect-reads.js';
import { REDIRECT_COLUMNS, redirectTargetOf, type RedirectRow } from '../sql/redirect-row.js';
import { guardMariaDb } from './mariadb-errors.js';

const READ_REDIRECT = `SELECT ${REDIRECT_COLUMNS} FROM links WHERE domain = ? AND code = ?`;

/**
 * The redirect's cache-miss read: one lookup on the unique key (domain, code), read as
 * positional rows (no column names per row).
 */
export class MariaDbRedirectReads implements RedirectReads {
  readonly #pool: Pool;

  /**
   * `pool`: the redirect pool (the short redirect timeout; on Galera, dirty reads, so a node
   * cut off from the others still serves what it holds). There is no replica to fall back
   * from: in a Galera cluster every node is a primary, and reads stay in the region.
   */
  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** `primary` changes nothing: this pool already reads where writes go. */
  async findRedirectByCode(domain: string, code: string): Promise<RedirectTarget | null> {
    // utf8mb4_bin pads with spaces (PAD SPACE): 'abc ' would find the link 'abc'. No stored
    // host ends with a space, and the code is compared again below byte for byte.
    if (domain.endsWith(' ')) return null;
    return guardMariaDb('read the link', async () => {
      const [rows] = await this.#pool.query<RowDataPacket[][]>({
        sql: READ_REDIRECT,
        values: [domain, code],
        rowsAsArray: true,
      });
      const row = rows[0] as unknown as RedirectRow | undefined;
      return row === undefined || row[1] !== code ? null : redirectTargetOf(row);
    });
  }
}

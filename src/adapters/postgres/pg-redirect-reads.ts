import type pg from 'pg';
import type { RedirectTarget } from '../../domain/redirect-target.js';
import type { RedirectReads } from '../../ports/redirect-reads.js';
import { REDIRECT_COLUMNS, redirectTargetOf, type RedirectRow } from '../sql/redirect-row.js';
import { guardPg } from './pg-errors.js';
import { NUL } from './pg-link-rows.js';

export interface PgRedirectReadsOptions {
  /**
   * Where redirects read (a replica, or the primary's redirect pool with the short store
   * timeout). A link the replica has not received yet is read again from the primary.
   */
  readonly redirectReads: pg.Pool;
  readonly redirectReadsAreReplica: boolean;
  /** The primary, with the redirect reads' timeout: where a replica's miss is read again. */
  readonly primaryRedirectReads: pg.Pool;
}

export class PgRedirectReads implements RedirectReads {
  readonly #redirectReads: pg.Pool;
  readonly #replica: boolean;
  readonly #primaryRedirectReads: pg.Pool;

  constructor(options: PgRedirectReadsOptions) {
    this.#redirectReads = options.redirectReads;
    this.#replica = options.redirectReadsAreReplica;
    this.#primaryRedirectReads = options.primaryRedirectReads;
  }

  async findRedirectByCode(
    domain: string,
    code: string,
    options?: { readonly primary?: boolean },
  ): Promise<RedirectTarget | null> {
    if (code.includes(NUL) || domain.includes(NUL)) return null;
    return guardPg('read the link', async () => {
      if (!this.#replica) return readRedirect(this.#redirectReads, domain, code);
      if (options?.primary === true) return readRedirect(this.#primaryRedirectReads, domain, code);
      // A replica that fails (down, lagging past the timeout) is no reason to fail a
      // redirect while the primary answers: no single database node stops redirects.
      const found = await readRedirect(this.#redirectReads, domain, code).catch(() => null);
      // Read-your-writes across instances: a link created a moment ago on another instance
      // may not have reached the replica; "not found" is only believed from the primary.
      return found ?? readRedirect(this.#primaryRedirectReads, domain, code);
    });
  }
}

async function readRedirect(
  pool: pg.Pool,
  domain: string,
  code: string,
): Promise<RedirectTarget | null> {
  const { rows } = await pool.query<RedirectRow>({
    text: `SELECT ${REDIRECT_COLUMNS} FROM links WHERE domain = $1 AND code = $2`,
    values: [domain, code],
    rowMode: 'array',
  });
  const row = rows[0];
  return row === undefined ? null : redirectTargetOf(row);
}

import type { PeerRow } from '../../domain/peer-link.js';
import type { KuttLinkRow, KuttTables } from './kutt-link-rows.js';
import { openKuttPostgres } from './kutt-postgres-tables.js';
import { openKuttSqlite } from './kutt-sqlite-tables.js';
import { PeerSourceError, type PeerRows } from './peer-rows.js';
import { clickCount, epochMs, flag, redactedUrl, textOrNull } from './peer-values.js';

const PAGE_SIZE = 1000;

/**
 * Reads Kutt's `links` (server/models/link.model.js) joined with `domains`, by id, a page a
 * query, from `postgres://…` or `sqlite:<path>`: `address` is the code, `description` the
 * title, `expire_in` the expiry, `banned` (the link's or its domain's) a disabled link,
 * `visit_count` the click total, and the bcrypt `password` hash kept as it is.
 */
export async function readKuttDatabase(url: string): Promise<PeerRows> {
  const tables = await openKuttTables(url);
  let total: number;
  try {
    total = await tables.count();
  } catch (error) {
    await tables.close();
    throw error;
  }
  let done = 0;
  async function* rows(): AsyncGenerator<PeerRow> {
    try {
      let afterId = 0;
      for (;;) {
        const page = await tables.page(afterId, PAGE_SIZE);
        for (const row of page) {
          done++;
          yield kuttRow(row);
        }
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE_SIZE) return;
        afterId = Number(last.id);
      }
    } finally {
      await tables.close();
    }
  }
  const iterator = rows();
  return {
    [Symbol.asyncIterator]: () => iterator,
    progress: () => ({ done, total }),
    close: async () => {
      await iterator.return(undefined);
      await tables.close();
    },
  };
}

async function openKuttTables(url: string): Promise<KuttTables> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new PeerSourceError('--from sqlite: names no file (sqlite:kutt.db)');
    return openKuttSqlite(file);
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return openKuttPostgres(url);
  }
  throw new PeerSourceError(
    `--from ${redactedUrl(url)}: a Kutt database is read from postgres://… or sqlite:<file>`,
  );
}

function kuttRow(row: KuttLinkRow): PeerRow {
  const source = `link ${String(row.id)} (${row.address})`;
  const destination = textOrNull(row.target);
  if (destination === null) return { source, problem: 'no target' };
  if (row.address === '') return { source, problem: 'an empty address' };
  const createdAt = epochMs(row.created_at);
  if (createdAt === null) {
    return { source, problem: `created_at ${String(row.created_at)} is not a time` };
  }
  const expiresAt = epochMs(row.expire_in);
  if (expiresAt === null) {
    return { source, problem: `expire_in ${String(row.expire_in)} is not a time` };
  }
  const clicks = clickCount(row.visit_count);
  if (clicks === null) {
    return { source, problem: `visit_count ${String(row.visit_count)} is not a whole number` };
  }
  return {
    source,
    code: row.address,
    domain: textOrNull(row.domain),
    destination,
    title: textOrNull(row.description),
    tags: [],
    createdAt: createdAt ?? null,
    expiresAt: expiresAt ?? null,
    // A banned domain's links stop working on Kutt as a banned link does.
    state: flag(row.banned) || flag(row.domain_banned) ? 'disabled' : 'active',
    clicks,
    passwordHash: textOrNull(row.password),
    // Kutt redirects with Express's default.
    statusCode: 302,
  };
}

import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import type { Link } from '../../domain/link.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';
import { isCodeTaken, linkValues } from './mariadb-link-rows.js';
import { inTransaction } from './mariadb-transaction.js';

/** Links per statement, and characters of their JSON: well inside a 16 MiB max_allowed_packet. */
const CHUNK_LINKS = 500;
const CHUNK_CHARACTERS = 4_000_000;
/** Runs of a chunk whose codes were taken by someone else between its read and its insert. */
const CHUNK_ATTEMPTS = 3;

interface CodeRow extends RowDataPacket {
  domain: string;
  code: string;
}

/** Thrown inside a chunk's transaction to run it again: a code was taken meanwhile. */
class CodeTakenMeanwhile extends Error {}

/**
 * Inserts `links`, skipping any whose code its domain already holds, and counts what it
 * inserted (ADR 0140). MariaDB has no ON CONFLICT DO NOTHING, and INSERT IGNORE would also
 * turn a value that does not fit into a silent truncation: each chunk reads which codes are
 * taken, then inserts the others in one statement; a code taken between the two fails the
 * insert, and the chunk is run again.
 */
export async function importLinks(pool: Pool, links: readonly Link[]): Promise<number> {
  let inserted = 0;
  for (const chunk of chunksOf(links)) inserted += await importChunk(pool, chunk);
  return inserted;
}

async function importChunk(pool: Pool, chunk: readonly Link[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, (connection) => insertUntaken(connection, chunk));
    } catch (error) {
      if (!(error instanceof CodeTakenMeanwhile) || attempt === CHUNK_ATTEMPTS) throw error;
    }
  }
}

async function insertUntaken(connection: PoolConnection, chunk: readonly Link[]): Promise<number> {
  const keyOf = (domain: string, code: string) => JSON.stringify([domain, code]);
  const [taken] = await connection.query<CodeRow[]>(
    'SELECT domain, code FROM links WHERE (domain, code) IN (?)',
    [chunk.map((link) => [link.domain, link.code])],
  );
  // The chunk's own repeats too: the first link with a code wins, as ON CONFLICT's would.
  const held = new Set(taken.map((row) => keyOf(row.domain, row.code)));
  const free: Link[] = [];
  for (const link of chunk) {
    const key = keyOf(link.domain, link.code);
    if (held.has(key)) continue;
    held.add(key);
    free.push(link);
  }
  if (free.length === 0) return 0;
  try {
    await connection.query(`INSERT INTO links (${LINK_COLUMNS}) VALUES ?`, [free.map(linkValues)]);
  } catch (error) {
    if (isCodeTaken(error)) throw new CodeTakenMeanwhile();
    throw error;
  }
  return free.length;
}

/** `links` in runs of at most CHUNK_LINKS links and about CHUNK_CHARACTERS of values. */
function* chunksOf(links: readonly Link[]): Generator<readonly Link[]> {
  let chunk: Link[] = [];
  let characters = 0;
  for (const link of links) {
    const size = JSON.stringify(link).length;
    if (
      chunk.length > 0 &&
      (chunk.length === CHUNK_LINKS || characters + size > CHUNK_CHARACTERS)
    ) {
      yield chunk;
      chunk = [];
      characters = 0;
    }
    chunk.push(link);
    characters += size;
  }
  if (chunk.length > 0) yield chunk;
}

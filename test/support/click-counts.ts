import Database from 'better-sqlite3';
import { join } from 'node:path';

export const E2E_ADMIN_KEY = 'hop_e2e_clicks_admin_key_0123456789';

/** Creates a link through the API of a running hop; returns its id and code. */
export async function createLink(url: string): Promise<{ id: string; code: string }> {
  const response = await fetch(`${url}/v1/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${E2E_ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ destination: 'https://example.com/counted' }),
  });
  if (response.status !== 201) throw new Error(`create failed: ${await response.text()}`);
  return (await response.json()) as { id: string; code: string };
}

/**
 * A link's counted clicks and the batches still queued, read straight from clicks.db
 * file (another process may be writing it: WAL lets this read alongside).
 */
export function readCounts(dataDir: string, linkId: string): { clicks: number; queued: number } {
  const db = new Database(join(dataDir, 'clicks.db'), { readonly: true, fileMustExist: true });
  try {
    const clicks = db
      .prepare<[string], number>('SELECT clicks FROM click_totals WHERE link_id = ?')
      .pluck()
      .get(linkId);
    const queued = db.prepare<[], number>('SELECT count(*) FROM click_queue').pluck().get();
    return { clicks: clicks ?? 0, queued: queued ?? 0 };
  } finally {
    db.close();
  }
}

/** One sample of a hop's /metrics (no labels), or undefined when absent. */
export async function readMetric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

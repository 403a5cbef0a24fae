import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseFile } from './open-database-file.js';
import { SqliteLinkInserts } from './sqlite-link-inserts.js';
import type {
  FromLinkInsertThread,
  LinkInsertThreadData,
  ToLinkInsertThread,
} from './link-insert-thread.js';

/**
 * The link insert thread (ADR 0144): writes the creates of `hop serve` on its own
 * connection, one message at a time, in the order they were sent.
 */
const { file } = workerData as LinkInsertThreadData;
const port = parentPort;
if (port === null) throw new Error('link-insert-thread-entry runs as a worker thread');
const db = openDatabaseFile(file);
db.pragma('foreign_keys = ON');
// SQLite's own checkpoints stay on here (1000 pages), unlike on the event loop's
// connection: off the event loop a checkpoint in a commit stalls only creates, and it keeps
// the WAL bounded should the checkpoint worker be gone (ADR 0144).
const inserts = new SqliteLinkInserts(db);

port.on('message', (message: ToLinkInsertThread) => {
  if (message === 'stop') {
    // Every insert sent before this one is answered: the answers are already posted.
    // Exiting, not closing the port: a loader's handles (tsx's, in tests) would keep the
    // thread alive.
    db.close();
    process.exit(0);
  }
  let answer: FromLinkInsertThread;
  try {
    answer = { id: message.id, result: inserts.insert(message.row, message.claim) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    answer = {
      id: message.id,
      failed: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : undefined,
    };
  }
  port.postMessage(answer);
});

import { execFile, spawnSync } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { deferrer, type Defer } from './deferred-cleanups.js';
import { eventually } from './eventually.js';
import { freePort } from './free-port.js';

/** The programs a private server and its replica need, all from one installation. */
const PROGRAMS = ['initdb', 'pg_ctl', 'pg_basebackup'] as const;
/** Polls 10 ms apart: a bound on a wait (a loaded machine), never a claim about speed. */
const POLLS = 6000;

/**
 * Where PostgreSQL's server programs are: HOP_TEST_PG_BINDIR, else the newest
 * /usr/lib/postgresql/N/bin (Debian, Ubuntu), else PATH; null when none has all of them.
 */
export function findPostgresBinaries(): string | null {
  const candidates: string[] = [];
  const fromEnv = process.env['HOP_TEST_PG_BINDIR'];
  if (fromEnv !== undefined && fromEnv !== '') candidates.push(fromEnv);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  candidates.push(...(process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== ''));
  return (
    candidates.find((dir) => PROGRAMS.every((program) => isExecutable(join(dir, program)))) ?? null
  );
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The user the servers run as: `postgres` when we are root (initdb refuses root), else us. */
interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

function runAs(): RunAs | null | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => {
    const result = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    return result.status === 0 ? Number(result.stdout.trim()) : NaN;
  };
  const uid = id('-u');
  const gid = id('-g');
  return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
}

/**
 * Whether a private PostgreSQL can be run here; its bin folder, or null. Under CI=true
 * missing programs fail the test (never a silent skip in CI); elsewhere the test is
 * skipped with a message.
 */
export function requirePostgresBinaries(t: TestContext): string | null {
  const bin = findPostgresBinaries();
  const user = runAs();
  let why: string | null = null;
  if (bin === null) {
    why = `PostgreSQL's ${PROGRAMS.join(', ')} were not found (set HOP_TEST_PG_BINDIR, or install postgresql)`;
  } else if (user === null) {
    why = 'running as root, but there is no user "postgres" to run initdb as';
  }
  if (why === null) return bin;
  if (process.env['CI'] === 'true') throw new Error(why);
  t.skip(`${why}; skipping this test`);
  return null;
}

export interface OwnPostgresNode {
  readonly role: 'primary' | 'replica';
  readonly port: number;
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only). */
  readonly url: string;
  /** pg_ctl start, waiting until it accepts connections (same port, same data). */
  start(): Promise<void>;
  /** pg_ctl stop (fast by default: clients are disconnected), waiting until it is gone. */
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  restart(): Promise<void>;
  readonly running: boolean;
  /** One statement over a fresh connection. */
  query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]>;
  /** The server's log so far. */
  log(): string;
}

export interface OwnPostgres {
  readonly primary: OwnPostgresNode;
  /** The streaming replica, when asked for. */
  readonly replica: OwnPostgresNode | null;
  /** Both servers' logs, for failure messages. */
  logs(): string;
  /** Stops every server (immediate) and removes every file; never throws for a stopped one. */
  close(): Promise<void>;
}

export interface OwnPostgresOptions {
  /** Also make a hot-standby streaming replica with pg_basebackup -R, and start it. */
  readonly replica?: boolean;
  /**
   * Log every statement with its parameters (log_statement = all), to show from the log
   * which server ran what. Every log line starts `app=<application_name> pid=<pid>: `.
   */
  readonly logStatements?: boolean;
}

/**
 * A PostgreSQL of the test's own (never the shared one) on a free loopback port, in a
 * temporary folder owned by the user it runs as; optionally with a streaming replica.
 * `bin` comes from requirePostgresBinaries. The caller closes it after the test.
 */
export async function startOwnPostgres(
  bin: string,
  options: OwnPostgresOptions = {},
): Promise<OwnPostgres> {
  const user = runAs() ?? undefined;
  const base = mkdtempSync(join(tmpdir(), 'hop-own-pg-'));
  const socketDir = join(base, 'sock');
  mkdirSync(socketDir);
  if (user !== undefined) {
    chownSync(base, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const run = (program: string, args: readonly string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        join(bin, program),
        args,
        { cwd: base, uid: user?.uid, gid: user?.gid, env: { ...process.env, LC_ALL: 'C' } },
        (error, stdout, stderr) => {
          if (error === null) resolve(stdout);
          else
            reject(
              new Error(
                `${program} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`,
              ),
            );
        },
      );
    });

  const nodes: Node[] = [];
  const close = async () => {
    for (const node of [...nodes].reverse()) await node.kill();
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const primaryDir = join(base, 'primary');
    await run('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const primary = new Node('primary', primaryDir, await freePort(), socketDir, run);
    nodes.push(primary);
    // Speed over durability (the data lives for one test); replication as by default
    // (wal_level replica, max_wal_senders 10, replication allowed from 127.0.0.1).
    // The replica's configuration is a copy of the primary's (pg_basebackup).
    primary.configure([
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      "log_line_prefix = 'app=%a pid=%p: '",
      ...(options.logStatements === true ? ["log_statement = 'all'"] : []),
    ]);
    await primary.start();

    let replica: Node | null = null;
    if (options.replica === true) {
      const replicaDir = join(base, 'replica');
      await run('pg_basebackup', [
        ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
        ...['-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
      ]);
      replica = new Node('replica', replicaDir, await freePort(), socketDir, run);
      nodes.push(replica);
      replica.configure(['hot_standby = on']);
      await replica.start();
      await eventually(
        async () => {
          const rows = await primary.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'",
          );
          return rows[0]?.n === 1;
        },
        `the replica streaming from the primary\n${replica.log()}`,
        POLLS,
      );
    }
    return {
      primary,
      replica,
      logs: () => nodes.map((node) => `--- ${node.role} log ---\n${node.log()}`).join('\n'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

class Node implements OwnPostgresNode {
  readonly url: string;
  #running = false;

  constructor(
    readonly role: 'primary' | 'replica',
    readonly dataDir: string,
    readonly port: number,
    readonly socketDir: string,
    readonly run: (program: string, args: readonly string[]) => Promise<string>,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  get #logFile(): string {
    return join(this.dataDir, '..', `${this.role}.log`);
  }

  get running(): boolean {
    return this.#running;
  }

  /** Appends settings to postgresql.conf (the last of a setting wins). */
  configure(settings: readonly string[]): void {
    const own = [
      `port = ${this.port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${this.socketDir}'`,
    ];
    appendFileSync(
      join(this.dataDir, 'postgresql.conf'),
      `\n${[...own, ...settings].join('\n')}\n`,
    );
  }

  async start(): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-l', this.#logFile, '-w', '-t', '120', 'start']);
    this.#running = true;
  }

  async stop(mode: 'smart' | 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '120', 'stop']);
    this.#running = false;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** For clean-up: stops it if a server runs on this folder, whatever we believe. */
  async kill(): Promise<void> {
    if (!existsSync(join(this.dataDir, 'postmaster.pid'))) return;
    await this.stop('immediate').catch(() => undefined);
  }

  async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  }

  log(): string {
    try {
      return readFileSync(this.#logFile, 'utf8');
    } catch {
      return '(no log)';
    }
  }
}

/** A private server and a hop data folder for one test: see `ownPostgresForTest`. */
export interface OwnPostgresForTest {
  readonly db: OwnPostgres;
  readonly dataDir: string;
  /** The test's clean-ups, run after it in reverse order: the server and folder last. */
  readonly defer: Defer;
}

/**
 * A private server (`startOwnPostgres`) and an empty data folder named `prefix…`, both
 * removed after the test; null when the test cannot run here (see `requirePostgresBinaries`).
 */
export async function ownPostgresForTest(
  t: TestContext,
  prefix: string,
  options: OwnPostgresOptions = {},
): Promise<OwnPostgresForTest | null> {
  const bin = requirePostgresBinaries(t);
  if (bin === null) return null;
  const defer = deferrer(t);
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = await startOwnPostgres(bin, options);
  defer(() => db.close());
  return { db, dataDir, defer };
}

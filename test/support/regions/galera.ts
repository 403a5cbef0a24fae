/**
 * One MariaDB Galera node per region, each in its region's namespace on port 3306 (each
 * namespace has its own network stack), its data in the run's temp folder, owned by `mysql`
 * (mariadbd runs as mysql: rsync SST as root fails on permissions, TOOLING.md).
 *
 * Fast start (three-regions.ts does the steps): one mariadb-install-db for the first node;
 * it bootstraps alone and shuts down cleanly (its data now holds a Galera position); its data
 * is copied to every other node, and each gets a gvwstate.dat naming all of them as one
 * primary component. Started together, they restore that component (pc.recovery): no
 * bootstrap, no state transfer. 3 to 4 s here, where a first join by rsync SST took 10 s a
 * node, one node at a time (the donor serves one joiner), and wsrep_sst_method=skip left the
 * joiner waiting for an IST that never came.
 *
 * A node that comes back after a cut or a crash catches up by IST from a donor's gcache
 * (64 MB, in memory), or by rsync SST when IST cannot serve it; see GaleraNode.start.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chownSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { sh } from './network.js';
import { RegionProcess } from './region-process.js';

export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
export const GALERA_PORT = 3306;

/** The wsrep status values a test looks at. */
export interface GaleraStatus {
  /** wsrep_cluster_size: the members of the component this node is in. */
  readonly clusterSize: number;
  /** wsrep_cluster_status: 'Primary', 'non-Primary' or 'Disconnected'. */
  readonly clusterStatus: string;
  /** wsrep_local_state_comment: 'Synced', 'Joining', 'Joined', 'Donor/Desynced', 'Initialized'… */
  readonly localState: string;
  /** wsrep_ready: the node accepts queries. */
  readonly ready: boolean;
  /** wsrep_connected. */
  readonly connected: boolean;
  /** wsrep_last_committed: the seqno of the last write set this node applied. */
  readonly lastCommitted: number;
}

export interface GaleraTuning {
  /**
   * Galera's failure detection (evs.*), in seconds: a cut-off node is suspected after
   * `suspectSeconds` and the others form a new component. Galera's defaults (5 s suspect,
   * 15 s inactive) make every cut take that long; the defaults here are 2 s and 3 s.
   */
  readonly suspectSeconds?: number;
  readonly inactiveSeconds?: number;
}

/** `mysql`'s uid and gid, which the data must belong to. */
async function mysqlUser(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await sh('id', ['-u', 'mysql'])).trim());
  const gid = Number((await sh('id', ['-g', 'mysql'])).trim());
  return { uid, gid };
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}

/** Options of the data folder that the nodes' configuration must repeat. */
const LOG_FILE_SIZE = '8M';

/**
 * Makes the first node's data folder (mariadb-install-db, and root@'%' without a password:
 * the test connects from its own namespace, not from localhost) and every node's folder,
 * all owned by mysql. Returns the nodes' data folders; only the first holds data: the others
 * get a copy of it once it has a Galera position (seedJoiners).
 */
export async function prepareGaleraData(base: string, names: readonly string[]): Promise<string[]> {
  const { uid, gid } = await mysqlUser();
  const dirs = names.map((name) => join(base, name, 'galera'));
  for (const dir of dirs) {
    mkdirSync(join(dir, '..'), { recursive: true });
    chownSync(join(dir, '..'), uid, gid);
  }
  const first = dirs[0]!;
  await sh('mariadb-install-db', [
    '--no-defaults',
    '--user=mysql',
    `--datadir=${first}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    `--innodb-log-file-size=${LOG_FILE_SIZE}`,
  ]);
  // root@'%' as root@localhost: mariadbd --bootstrap reads SQL from stdin.
  await bootstrapSql(first, [
    "INSERT INTO mysql.global_priv (Host, User, Priv) SELECT '%', User, Priv FROM mysql.global_priv WHERE Host = 'localhost' AND User = 'root';",
  ]);
  return dirs;
}

/**
 * Copies a stopped node's data folder (with its Galera position: InnoDB's wsrep XID and
 * grastate.dat) into the others', owned by mysql.
 */
export async function copyGaleraData(from: string, to: readonly string[]): Promise<void> {
  const { uid, gid } = await mysqlUser();
  for (const dir of to) {
    rmSync(dir, { recursive: true, force: true });
    cpSync(from, dir, { recursive: true, preserveTimestamps: true });
    chownTree(dir, uid, gid);
  }
}

/**
 * Writes gvwstate.dat into every node's data folder: a primary component of all of them, as
 * Galera saves it while running. Nodes that find one restore it once all its members meet.
 */
export function writeSavedComponent(datadirs: readonly string[]): void {
  const ids = datadirs.map(() => randomUUID());
  const view = randomUUID();
  datadirs.forEach((dir, i) => {
    writeFileSync(
      join(dir, 'gvwstate.dat'),
      [
        `my_uuid: ${ids[i]!}`,
        '#vwbeg',
        `view_id: 3 ${view} 1`,
        'bootstrap: 0',
        ...ids.map((id) => `member: ${id} 0`),
        '#vwend',
        '',
      ].join('\n'),
    );
  });
}

async function bootstrapSql(datadir: string, statements: readonly string[]): Promise<void> {
  const child = spawn(
    'mariadbd',
    [
      '--no-defaults',
      '--bootstrap',
      '--user=mysql',
      `--datadir=${datadir}`,
      `--innodb-log-file-size=${LOG_FILE_SIZE}`,
      '--skip-networking',
      '--log-warnings=0',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(`USE mysql;\n${statements.join('\n')}\n`);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`mariadbd --bootstrap failed (${code}):\n${output}`);
}

export interface GaleraNodeConfig {
  readonly name: string;
  readonly netns: string;
  readonly address: string;
  readonly datadir: string;
  readonly clusterName: string;
  /** Every node's address, this one's included. */
  readonly members: readonly string[];
  readonly tuning: GaleraTuning;
}

export class GaleraNode {
  readonly port = GALERA_PORT;
  /** mysql://root@<address>:3306: from the test, and from inside any region. */
  readonly url: string;
  #process: RegionProcess | null = null;

  constructor(readonly config: GaleraNodeConfig) {
    this.url = `mysql://root@${config.address}:${GALERA_PORT}`;
    writeFileSync(this.#configFile, this.#configuration());
  }

  get #dir(): string {
    return join(this.config.datadir, '..');
  }

  get #configFile(): string {
    return join(this.#dir, 'my.cnf');
  }

  get #errorLog(): string {
    return join(this.#dir, 'mariadb-error.log');
  }

  #configuration(): string {
    const { address, datadir, members, tuning } = this.config;
    const suspect = tuning.suspectSeconds ?? 2;
    const inactive = tuning.inactiveSeconds ?? Math.max(3, suspect + 1);
    const provider = [
      `gmcast.listen_addr=tcp://${address}:4567`,
      `ist.recv_addr=${address}:4568`,
      'gcache.size=64M',
      'gcache.page_size=16M',
      // Failure detection (the keepalive must be shorter than the checks and the timeouts).
      'evs.keepalive_period=PT0.5S',
      'evs.inactive_check_period=PT0.5S',
      `evs.suspect_timeout=PT${suspect}S`,
      `evs.inactive_timeout=PT${inactive}S`,
      `evs.install_timeout=PT${inactive}S`,
    ].join(';');
    return [
      '[mysqld]',
      `datadir = ${datadir}`,
      `socket = ${join(this.#dir, 'mysqld.sock')}`,
      `pid-file = ${join(this.#dir, 'mysqld.pid')}`,
      `log-error = ${this.#errorLog}`,
      `port = ${GALERA_PORT}`,
      'bind-address = 0.0.0.0',
      'skip-name-resolve',
      'performance_schema = OFF',
      'character-set-server = utf8mb4',
      'collation-server = utf8mb4_unicode_ci',
      'default-storage-engine = InnoDB',
      'binlog_format = ROW',
      'innodb_autoinc_lock_mode = 2',
      'innodb_flush_log_at_trx_commit = 2',
      'innodb_buffer_pool_size = 32M',
      `innodb_log_file_size = ${LOG_FILE_SIZE}`,
      'innodb_doublewrite = 0',
      'wsrep_on = ON',
      `wsrep_provider = ${GALERA_PROVIDER}`,
      `wsrep_cluster_name = ${this.config.clusterName}`,
      `wsrep_cluster_address = gcomm://${members.map((member) => `${member}:4567`).join(',')}`,
      `wsrep_node_name = ${this.config.name}`,
      `wsrep_node_address = ${address}`,
      `wsrep_provider_options = "${provider}"`,
      'wsrep_sst_method = rsync',
      `wsrep_sst_receive_address = ${address}:4444`,
      'wsrep_slave_threads = 2',
      '',
    ].join('\n');
  }

  get running(): boolean {
    return this.#process?.running ?? false;
  }

  /**
   * Starts mariadbd in the region; waits only for the crash recovery below, not for the node
   * to join. `bootstrap`: a new cluster (--wsrep-new-cluster). After a kill, grastate.dat
   * holds no position (seqno -1) and mariadbd started by hand would not look for it (the
   * Debian service runs galera_recovery): it is read from InnoDB first (--wsrep-recover)
   * and passed on (--wsrep-start-position), so that the node catches up by IST, not by a
   * full SST (11 s here).
   */
  async start(options: { bootstrap?: boolean } = {}): Promise<void> {
    if (this.running) throw new Error(`galera ${this.config.name} is already running`);
    const position = this.#savedSeqno() === -1 ? await this.#recoverPosition() : null;
    this.#process = new RegionProcess(
      this.config.netns,
      'mariadbd',
      [
        `--defaults-file=${this.#configFile}`,
        ...(options.bootstrap === true ? ['--wsrep-new-cluster'] : []),
        ...(position === null ? [] : [`--wsrep-start-position=${position}`]),
      ],
      { user: 'mysql' },
    );
  }

  /** grastate.dat's seqno: -1 after a crash, null when there is none. */
  #savedSeqno(): number | null {
    try {
      const text = readFileSync(join(this.config.datadir, 'grastate.dat'), 'utf8');
      const seqno = /^seqno:\s*(-?\d+)/m.exec(text)?.[1];
      return seqno === undefined ? null : Number(seqno);
    } catch {
      return null;
    }
  }

  /** The position InnoDB holds (mariadbd --wsrep-recover), or null if it has none. */
  async #recoverPosition(): Promise<string | null> {
    const log = join(this.#dir, 'wsrep-recover.log');
    rmSync(log, { force: true });
    const recovery = new RegionProcess(
      this.config.netns,
      'mariadbd',
      [`--defaults-file=${this.#configFile}`, '--wsrep-recover', `--log-error=${log}`],
      { user: 'mysql' },
    );
    const { code, output } = await recovery.result();
    let text = '';
    try {
      text = readFileSync(log, 'utf8');
    } catch {
      // no log: reported below
    }
    const position = /Recovered position: ([0-9a-f-]{36}:-?\d+)/.exec(text)?.[1];
    if (code !== 0 || position === undefined) {
      throw new Error(
        `galera ${this.config.name}: --wsrep-recover failed (${code}):\n${output}\n${text}`,
      );
    }
    return position.endsWith(':-1') ? null : position;
  }

  /** SIGTERM: a clean shutdown (its position saved); waits until it has ended. */
  async shutdown(): Promise<void> {
    await this.#process?.kill('SIGTERM');
  }

  /** SIGKILL, as a crash; waits until it has ended. */
  async kill(): Promise<void> {
    await this.#process?.kill('SIGKILL');
  }

  /** One connection from the test's namespace; the caller ends it. */
  connect(database?: string): Promise<Connection> {
    return createConnection({
      host: this.config.address,
      port: GALERA_PORT,
      user: 'root',
      connectTimeout: 3000,
      ...(database === undefined ? {} : { database }),
    });
  }

  /** One statement over a fresh connection. */
  async query<R extends RowDataPacket>(sql: string, values: unknown[] = []): Promise<R[]> {
    const connection = await this.connect();
    try {
      const [rows] = await connection.query<R[]>(sql, values);
      return rows;
    } finally {
      await connection.end().catch(() => undefined);
    }
  }

  /** The wsrep status now; null when the server does not answer. */
  async status(): Promise<GaleraStatus | null> {
    let rows: RowDataPacket[];
    try {
      rows = await this.query("SHOW GLOBAL STATUS LIKE 'wsrep\\_%'");
    } catch {
      return null;
    }
    const value = (name: string): string =>
      String(rows.find((row) => row['Variable_name'] === name)?.['Value'] ?? '');
    return {
      clusterSize: Number(value('wsrep_cluster_size') || 0),
      clusterStatus: value('wsrep_cluster_status'),
      localState: value('wsrep_local_state_comment'),
      ready: value('wsrep_ready') === 'ON',
      connected: value('wsrep_connected') === 'ON',
      lastCommitted: Number(value('wsrep_last_committed') || -1),
    };
  }

  /** Throws (with the error log) if mariadbd has exited. */
  assertRunning(): void {
    if (this.#process !== null && !this.running) {
      throw new Error(
        `galera ${this.config.name} exited:\n${this.#process.output()}\n${this.errorLog()}`,
      );
    }
  }

  /** The tail of its error log. */
  errorLog(lines = 60): string {
    try {
      return readFileSync(this.#errorLog, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no error log)';
    }
  }

  /**
   * How this node was caught up each time it joined, from its error log, in order: 'IST'
   * for "IST received" (the write sets it missed, from a donor's gcache), 'SST' for a full
   * copy of the data ("rsync SST completed on joiner"; a start that only needs IST runs the
   * rsync script too, which then logs "rsync IST completed").
   */
  stateTransfers(): ('IST' | 'SST')[] {
    let log: string;
    try {
      log = readFileSync(this.#errorLog, 'utf8');
    } catch {
      return [];
    }
    const found: ('IST' | 'SST')[] = [];
    for (const line of log.split('\n')) {
      if (line.includes('WSREP: IST received:')) found.push('IST');
      else if (line.includes('rsync SST completed on joiner')) found.push('SST');
    }
    return found;
  }
}

import { spawn, type ChildProcess } from 'node:child_process';

/** What a process keeps of its output: the tail, for failure messages. */
const OUTPUT_LIMIT = 64 * 1024;

export interface RegionProcessOptions {
  /** Added to the harness's own environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Runs as this user (its uid, gid and groups) instead of root. */
  readonly user?: string;
}

/**
 * A process started inside a region's network namespace. `ip netns exec` and `setpriv` exec
 * it (same pid: killing the child kills the server), and setpriv's parent-death signal kills
 * it if the test process dies without cleaning up (set after setpriv's own change of user; a
 * program that changes its user itself would lose it, hence `user` here).
 */
export class RegionProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once it has ended. */
  readonly exited: Promise<number | string>;
  /** Resolves once it has ended and its output is all read. */
  readonly #closed: Promise<void>;
  #output = '';

  constructor(
    readonly netns: string,
    readonly command: string,
    readonly args: readonly string[],
    options: RegionProcessOptions = {},
  ) {
    const user =
      options.user === undefined
        ? []
        : [`--reuid=${options.user}`, `--regid=${options.user}`, '--init-groups'];
    const wrapped = ['netns', 'exec', netns, 'setpriv', ...user, '--pdeathsig=KILL', '--'];
    this.child = spawn('ip', [...wrapped, command, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const keep = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-OUTPUT_LIMIT);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        keep(Buffer.from(`\n${error.message}\n`));
        resolve('error');
      });
      this.child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
    this.#closed = new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.once('error', () => resolve());
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The tail of what it printed on stdout and stderr. */
  output(): string {
    return this.#output;
  }

  /** Sends the signal (SIGKILL by default) and waits until it has ended. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    await this.exited;
  }

  /** Runs to its end: its exit code and output. */
  async result(): Promise<{ code: number | string; output: string }> {
    const code = await this.exited;
    await this.#closed;
    return { code, output: this.#output };
  }
}

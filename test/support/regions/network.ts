/**
 * The network of the simulated regions: one network namespace per region, a user-space
 * "wide-area network" between them (wan-hub.py: the delay, and cuts), and a direct link from
 * the test's own namespace to each region, so that the test reaches every region's servers
 * at once, without the delay, even while the region is cut off from the others.
 *
 *   region namespace hop-<pid>-<run>-<name> (<run>: 0, 1, … for each build in this process):
 *     wan   (TUN, from the hub)  <address>/24            other regions, through the hub
 *     mgmt  (veth)               10.214.<slot>.(4i+2)/30 the test process, no delay, never cut
 *   root namespace: hr<pid>-<run>-<i> (veth) 10.214.<slot>.(4i+1)/30, and a route to <address>/32
 *     through it. No default route in a region, so a region reaches another only by the hub.
 *   hub namespace hop-<pid>-<run>-hub: the hub process, which holds the TUN devices.
 *
 * The kernel here has no netem (CONFIG_NET_SCH_NETEM is off: `tc qdisc add … netem` says
 * "Specified qdisc kind is unknown"), hence the hub.
 */
import {
  execFile,
  spawn,
  spawnSync,
  type ChildProcessWithoutNullStreams,
} from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HUB_SCRIPT = fileURLToPath(new URL('./wan-hub.py', import.meta.url));
/** The system's Python (3.11 on Debian 12) when there is one: not a version manager's shim. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
/** Where the slot locks live: one folder per slot in use, holding the owner's pid. */
const SLOTS_DIR = join(tmpdir(), 'hop-regions-slots');
/** Namespaces, temp folders and slots of a run are named after its pid. */
const OWNED_NAMESPACE = /^hop-(\d+)-[a-z0-9-]+$/;
/** Builds in this process so far: part of every name, so that two at once never clash. */
let builds = 0;
export const TEMP_PREFIX = 'hop-regions-';
/**
 * Where the run's folders go: /dev/shm (memory) when there is one, as InnoDB's fsyncs on this
 * VM's disk made mariadb-install-db take 0.8 to 4.3 s; the data lives for one test.
 */
export const TEMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** Runs a command to completion; rejects with its output when it fails. */
export function sh(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else
        reject(new Error(`${command} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
    });
  });
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pids of every process in a namespace (ip netns pids scans /proc). */
export function pidsIn(netns: string): number[] {
  const result = spawnSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  return result.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** SIGKILLs every process left in the namespace, then deletes it. Never throws. */
export function deleteNamespace(netns: string): void {
  for (const pid of pidsIn(netns)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  spawnSync('ip', ['netns', 'delete', netns]);
}

/**
 * Removes what runs that died without cleaning up left behind: namespaces `hop-<pid>-…` (and
 * the processes in them), links `hr<pid>-…`, temp folders `hop-regions-<pid>-…` and slot
 * locks, whose pid no longer runs.
 */
export function cleanStale(): void {
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const line of listed.stdout?.split('\n') ?? []) {
    const netns = line.split(' ')[0] ?? '';
    const owner = OWNED_NAMESPACE.exec(netns)?.[1];
    if (owner !== undefined && !isAlive(Number(owner))) deleteNamespace(netns);
  }
  const rootLinks = spawnSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  for (const match of (rootLinks.stdout ?? '').matchAll(/^\d+: (hr(\d+)-\d+-\d+)[@:]/gm)) {
    if (!isAlive(Number(match[2])))
      spawnSync('ip', ['link', 'delete', match[1]!], { stdio: 'ignore' });
  }
  for (const entry of readdirSync(TEMP_ROOT)) {
    const owner = new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(entry)?.[1];
    if (owner !== undefined && !isAlive(Number(owner))) {
      rmSync(join(TEMP_ROOT, entry), { recursive: true, force: true });
    }
  }
  if (!existsSync(SLOTS_DIR)) return;
  for (const slot of readdirSync(SLOTS_DIR)) {
    if (!isAlive(slotOwner(slot))) rmSync(join(SLOTS_DIR, slot), { recursive: true, force: true });
  }
}

/** The pid holding a slot; a lock with no pid a minute after it was made is stale (-1). */
function slotOwner(slot: string): number {
  const dir = join(SLOTS_DIR, slot);
  try {
    return Number(readFileSync(join(dir, 'pid'), 'utf8'));
  } catch {
    const made = existsSync(dir) ? statSync(dir).mtimeMs : 0;
    return Date.now() - made > 60_000 ? -1 : process.pid;
  }
}

/**
 * A slot (0–255) no other live run holds: it names this run's subnets (10.213.<slot>.0/24 for
 * the regions, 10.214.<slot>.0/24 for the links from the test), which must not clash in the
 * root namespace. mkdir is the atomic lock; the pid inside says whose it is.
 */
function takeSlot(): number {
  mkdirSync(SLOTS_DIR, { recursive: true });
  const start = process.pid % 256;
  for (let i = 0; i < 256; i++) {
    const slot = (start + i) % 256;
    const dir = join(SLOTS_DIR, String(slot));
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    writeFileSync(join(dir, 'pid'), String(process.pid));
    return slot;
  }
  throw new Error(`no free subnet slot in ${SLOTS_DIR}: 256 runs hold one`);
}

export interface RegionLink {
  readonly name: string;
  readonly netns: string;
  /** The region's address: other regions reach it through the hub, the test directly. */
  readonly address: string;
}

export interface RegionNetwork {
  readonly links: readonly RegionLink[];
  /** Drops every packet from and to the region (its processes keep running). */
  cut(name: string): Promise<void>;
  heal(name: string): Promise<void>;
  /** The one-way delay between regions from now on. */
  setDelay(ms: number): Promise<void>;
  /** What the hub printed on stderr (empty when all is well). */
  hubOutput(): string;
  /** Kills the hub, deletes every namespace, frees the slot. Never throws. */
  close(): void;
}

/** Region names: short, as they become parts of device and namespace names. */
export const REGION_NAME = /^[a-z][a-z0-9]{0,7}$/;

/** Builds the namespaces, the hub between them and the links from the test to each. */
export async function buildNetwork(
  names: readonly string[],
  delayMs: number,
): Promise<RegionNetwork> {
  const tag = `${process.pid}-${builds++}`;
  if (`hr${tag}-${names.length - 1}`.length > 15) {
    throw new Error(
      `too many builds in one process (${builds}): device names would pass 15 characters`,
    );
  }
  const hubNetns = `hop-${tag}-hub`;
  const slot = takeSlot();
  const links: RegionLink[] = names.map((name, i) => ({
    name,
    netns: `hop-${tag}-${name}`,
    address: `10.213.${slot}.${i + 1}`,
  }));
  let hub: ChildProcessWithoutNullStreams | null = null;
  let hubStderr = '';
  const close = () => {
    if (hub !== null && hub.exitCode === null) hub.kill('SIGKILL');
    hub = null;
    deleteNamespace(hubNetns);
    links.forEach((link, i) => {
      // The kernel tears a namespace down lazily (minutes here): its veth pair and the root
      // side's address and route would outlive it. Deleting one end deletes both.
      spawnSync('ip', ['link', 'delete', `hr${tag}-${i}`], { stdio: 'ignore' });
      deleteNamespace(link.netns);
    });
    rmSync(join(SLOTS_DIR, String(slot)), { recursive: true, force: true });
  };

  try {
    await Promise.all([hubNetns, ...links.map((link) => link.netns)].map(addNamespace));
    const started = spawn(
      'ip',
      [
        ...['netns', 'exec', hubNetns, PYTHON, '-u', HUB_SCRIPT, String(delayMs)],
        ...links.map((link, i) => `${link.name}=t${i}=${link.address}`),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    hub = started;
    started.stderr.on('data', (chunk: Buffer) => (hubStderr += chunk.toString()));
    const replies = lineReader(started);
    const first = await replies.next();
    if (first !== 'ready') throw new Error(`the WAN hub did not start: ${first}\n${hubStderr}`);

    await Promise.all(
      links.map(async (link, i) => {
        const root = `hr${tag}-${i}`;
        const base = 4 * i;
        const near = `10.214.${slot}.${base + 1}`;
        const far = `10.214.${slot}.${base + 2}`;
        const inRegion = (...args: string[]) => sh('ip', ['-n', link.netns, ...args]);
        await sh('ip', ['-n', hubNetns, 'link', 'set', `t${i}`, 'netns', link.netns]);
        await inRegion('link', 'set', `t${i}`, 'name', 'wan');
        await inRegion('link', 'set', 'wan', 'mtu', '9000');
        await inRegion('addr', 'add', `${link.address}/24`, 'dev', 'wan');
        await inRegion('link', 'set', 'wan', 'up');
        await inRegion('link', 'set', 'lo', 'up');
        await sh('ip', [
          'link',
          'add',
          root,
          'type',
          'veth',
          'peer',
          'name',
          'mgmt',
          'netns',
          link.netns,
        ]);
        await sh('ip', ['addr', 'add', `${near}/30`, 'dev', root]);
        await sh('ip', ['link', 'set', root, 'up']);
        await inRegion('addr', 'add', `${far}/30`, 'dev', 'mgmt');
        await inRegion('link', 'set', 'mgmt', 'up');
        await sh('ip', ['route', 'add', `${link.address}/32`, 'via', far, 'dev', root]);
      }),
    );

    const command = async (line: string) => {
      if (hub === null || hub.exitCode !== null)
        throw new Error(`the WAN hub is gone\n${hubStderr}`);
      hub.stdin.write(`${line}\n`);
      const reply = await replies.next();
      if (reply !== 'ok') throw new Error(`WAN hub: ${line}: ${reply}\n${hubStderr}`);
    };
    const known = (name: string) => {
      if (!links.some((link) => link.name === name)) throw new Error(`no region ${name}`);
      return name;
    };
    return {
      links,
      cut: (name) => command(`cut ${known(name)}`),
      heal: (name) => command(`heal ${known(name)}`),
      setDelay: (ms) => command(`delay ${ms}`),
      hubOutput: () => hubStderr,
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

async function addNamespace(netns: string): Promise<void> {
  await sh('ip', ['netns', 'add', netns]);
}

/** The child's stdout as lines, one `next()` at a time; 'exited' once it has ended. */
function lineReader(child: ChildProcessWithoutNullStreams): { next(): Promise<string> } {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  const push = (line: string) => {
    const waiter = waiting.shift();
    if (waiter !== undefined) waiter(line);
    else lines.push(line);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  });
  child.on('close', (code) => {
    for (const waiter of waiting.splice(0)) waiter(`exited (${code})`);
  });
  return {
    next: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (child.exitCode !== null) return Promise.resolve(`exited (${child.exitCode})`);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

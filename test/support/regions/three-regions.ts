/**
 * Three (or more) simulated regions on this one host, for tests of hop across regions
 * (issue 25). Each region is a network namespace with one MariaDB Galera node, one Redis and
 * one NATS server; the Galera nodes form one cluster, the NATS servers one supercluster
 * (a gateway per region, one cluster name per region). Between regions every packet is
 * delayed (one-way `delayMs`, a round trip twice that) and a region can be cut off.
 *
 *   const world = await startRegions(t, { names: ['a', 'b', 'c'], delayMs: 30 });
 *   if (world === null) return;                       // skipped (never under CI=true)
 *   const a = world.region('a');
 *   await a.galera.query('CREATE DATABASE hop');      // from the test, no delay
 *   const hop = a.run(process.execPath, ['dist/cli/hop.js', 'serve'], { env: {...} });
 *   await world.cut('c'); … await world.heal('c');
 *
 * Every server listens on the region's address (port 3306, 6379, 4222 in each namespace);
 * its URL works from the test process (a direct link, no delay, never cut) and from inside
 * any region (from another region: through the delay, and not while cut).
 *
 * The delay is not netem (this kernel has none, see network.ts): a user-space hub forwards
 * the packets between regions (python3, wan-hub.py).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import {
  GALERA_PROVIDER,
  copyGaleraData,
  writeSavedComponent,
  GaleraNode,
  prepareGaleraData,
  type GaleraStatus,
  type GaleraTuning,
} from './galera.js';
import {
  buildNetwork,
  cleanStale,
  REGION_NAME,
  TEMP_PREFIX,
  TEMP_ROOT,
  type RegionLink,
  type RegionNetwork,
} from './network.js';
import { RegionProcess, type RegionProcessOptions } from './region-process.js';

export type { GaleraStatus, GaleraTuning } from './galera.js';
export { GaleraNode } from './galera.js';
export { RegionProcess, type RegionProcessOptions } from './region-process.js';

export const REDIS_PORT = 6379;
export const NATS_PORT = 4222;
export const NATS_MONITOR_PORT = 8222;
export const NATS_GATEWAY_PORT = 7222;
/** How long any wait of the harness may take: a bound for a loaded machine, not a claim. */
const WAIT_BOUND_MS = 120_000;

/**
 * What startRegions needs of its caller: `after`, to stop everything once the caller is done,
 * and `skip`, to skip when the regions cannot be built here. A node:test TestContext is one;
 * a bench (bench/regions-bench.ts) passes its own collector of cleanups and no `skip`, so a
 * missing program is an error there, never a silent skip.
 */
export interface RegionsOwner {
  after(cleanup: () => Promise<void>): void;
  skip?(message: string): void;
}

export interface StartRegionsOptions {
  /** Region names (lowercase letters and digits, at most 8, not "hub"); ['a', 'b', 'c'] by default. */
  readonly names?: readonly string[];
  /** One-way delay between regions in ms (a round trip is twice that); 30 by default. */
  readonly delayMs?: number;
  /** Galera's failure detection; see GaleraTuning. */
  readonly galera?: GaleraTuning;
  /**
   * Also wait, before returning, until JetStream's meta group has a leader (2 to 5 s more
   * here). Without it, a test that uses JetStream calls waitForJetStream() first.
   */
  readonly jetStream?: boolean;
}

export interface RegionRedis {
  readonly port: number;
  /** redis://<address>:6379 */
  readonly url: string;
}

export interface RegionNats {
  readonly port: number;
  /** nats://<address>:4222 */
  readonly url: string;
  /** http://<address>:8222: the server's monitoring endpoints (/varz, /gatewayz, /jsz). */
  readonly monitorUrl: string;
  /** The server's cluster and gateway name: the region's name. */
  readonly cluster: string;
}

export interface Region {
  readonly name: string;
  /** The network namespace, for `ip netns exec`. */
  readonly netns: string;
  /** The region's address (10.213.<slot>.<n>). */
  readonly address: string;
  readonly galera: GaleraNode;
  readonly redis: RegionRedis;
  readonly nats: RegionNats;
  /**
   * Starts a process inside the region (its network is the region's); killed at stop().
   * `env` is added to the test's environment.
   */
  run(command: string, args: readonly string[], options?: RegionProcessOptions): RegionProcess;
}

export interface Regions {
  readonly regions: ReadonlyMap<string, Region>;
  /** The region of that name (throws for an unknown one). */
  region(name: string): Region;
  /** The one-way delay between regions now. */
  readonly delayMs: number;
  /** How long startRegions took, in ms. */
  readonly startupMs: number;
  /** When each step of the start-up ended, in ms from its beginning. */
  readonly startupSteps: Readonly<Record<string, number>>;
  /**
   * The region loses every link to the others (both ways); its processes keep running, and
   * the test still reaches them (isolated but alive).
   */
  cut(name: string): Promise<void>;
  /** The region's links to the others come back. */
  heal(name: string): Promise<void>;
  /**
   * The region fails: SIGKILL to its Galera node, Redis, NATS server and every process its
   * run() started. The others see its links go silent, as after a cut.
   */
  crash(name: string): Promise<void>;
  /**
   * Starts a crashed region's servers again (Galera catches up by IST, Redis is empty, NATS
   * keeps its JetStream store) and waits until Galera is Synced in a cluster of every
   * running node, Redis answers and NATS has its gateways. Not the processes run() started.
   */
  restart(name: string): Promise<void>;
  /** The one-way delay between regions from now on. */
  setDelay(ms: number): Promise<void>;
  /** Waits until the region's Galera status satisfies `check`; returns that status. */
  waitForGalera(
    name: string,
    check: (status: GaleraStatus) => boolean,
    what: string,
  ): Promise<GaleraStatus>;
  /** Waits until JetStream answers in every region (its meta group has a leader). */
  waitForJetStream(): Promise<void>;
  /** Waits until every running Galera node is Synced in one Primary component of them all. */
  waitForGaleraSynced(): Promise<void>;
  /**
   * The smallest of a few round trips (a Redis PING on one TCP connection) measured from
   * inside region `from` to region `to`'s address, in ms.
   */
  roundTripMs(from: string, to: string): Promise<number>;
  /** Everything useful when a test fails: every server's log tail. */
  logs(): string;
  /** Kills every process, deletes the namespaces and the temp folder. Never throws. */
  stop(): Promise<void>;
}

/**
 * Whether the three regions can be built here: root, ip, setpriv, python3, /dev/net/tun,
 * mariadbd with Galera, rsync, redis-server, nats-server. Under CI=true a missing one fails
 * the test (never a silent skip in CI); elsewhere the test is skipped with a message (an owner
 * that cannot skip, a bench, fails instead).
 */
export function requireRegions(owner: RegionsOwner): boolean {
  const missing = missingCapabilities();
  if (missing.length === 0) return true;
  const why = `three regions cannot be built here: ${missing.join('; ')}`;
  if (process.env['CI'] === 'true' || owner.skip === undefined) throw new Error(why);
  owner.skip(why);
  return false;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function missingCapabilities(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('not root (network namespaces need it)');
  const programs = [
    'ip',
    'setpriv',
    'python3',
    'mariadbd',
    'mariadb-install-db',
    'rsync',
    'redis-server',
    'nats-server',
  ];
  const path = (process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const program of programs) {
    if (!path.some((dir) => isExecutable(join(dir, program)))) {
      missing.push(`${program} is not on PATH`);
    }
  }
  for (const [file, mode, what] of [
    [GALERA_PROVIDER, constants.R_OK, 'the Galera library (galera-4)'],
    ['/dev/net/tun', constants.R_OK | constants.W_OK, '/dev/net/tun'],
  ] as const) {
    try {
      accessSync(file, mode);
    } catch {
      missing.push(`${what} is missing (${file})`);
    }
  }
  if (spawnSync('id', ['-u', 'mysql'], { stdio: 'ignore' }).status !== 0) {
    missing.push('there is no user "mysql" to run MariaDB as');
  }
  return missing;
}

/**
 * Builds the regions (see the top of this file), waits until every Galera node is Synced in
 * one cluster of all, every Redis answers and every NATS server has its gateways to all the
 * others; `owner.after` (a test's `t.after`) stops everything, whatever the test did.
 * Returns null when the test was skipped (requireRegions).
 */
export async function startRegions(
  owner: RegionsOwner,
  options: StartRegionsOptions = {},
): Promise<Regions | null> {
  if (!requireRegions(owner)) return null;
  const started = Date.now();
  const steps: Record<string, number> = {};
  const step = (name: string) => (steps[name] = Date.now() - started);
  const names = options.names ?? ['a', 'b', 'c'];
  let delayMs = options.delayMs ?? 30;
  for (const name of names) {
    assert.ok(REGION_NAME.test(name) && name !== 'hub', `region name ${JSON.stringify(name)}`);
  }
  assert.equal(new Set(names).size, names.length, 'region names must differ');
  assert.ok(names.length >= 1 && names.length <= 60, 'between 1 and 60 regions');
  assert.ok(Number.isFinite(delayMs) && delayMs >= 0, 'delayMs must be 0 or more');

  cleanStale();
  const base = mkdtempSync(join(TEMP_ROOT, `${TEMP_PREFIX}${process.pid}-`));
  chmodSync(base, 0o755); // mariadbd runs as mysql and must reach its folder
  const regions = new Map<string, RegionState>();
  let network: RegionNetwork | null = null;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...regions.values()].map((region) => region.killAll()));
    network?.close();
    rmSync(base, { recursive: true, force: true });
  };
  owner.after(stop);

  try {
    // Both settled before either failure is thrown: a network built beside a failed data
    // preparation must still be known to stop(), or its namespaces outlive the run.
    const [builtResult, galeraResult] = await Promise.allSettled([
      buildNetwork(names, delayMs),
      prepareGaleraData(base, names),
    ]);
    if (builtResult.status === 'fulfilled') network = builtResult.value;
    if (builtResult.status === 'rejected') throw builtResult.reason;
    if (galeraResult.status === 'rejected') throw galeraResult.reason;
    const built = builtResult.value;
    const galeraDirs = galeraResult.value;
    step('network, galera data');
    const addresses = built.links.map((link) => link.address);
    built.links.forEach((link, i) => {
      const galera = new GaleraNode({
        name: link.name,
        netns: link.netns,
        address: link.address,
        datadir: galeraDirs[i]!,
        clusterName: `hop-${process.pid}`,
        members: addresses,
        tuning: options.galera ?? {},
      });
      regions.set(link.name, new RegionState(link, galera, join(base, link.name), () => stopped));
    });
    const all = [...regions.values()];
    for (const region of all) region.writeNatsConfiguration(all);

    const byName = (name: string): RegionState => {
      const region = regions.get(name);
      if (region === undefined) throw new Error(`no region ${JSON.stringify(name)}`);
      return region;
    };
    const waitForGalera = async (
      name: string,
      check: (status: GaleraStatus) => boolean,
      what: string,
    ): Promise<GaleraStatus> => {
      const node = byName(name).galera;
      let last: GaleraStatus | null = null;
      await until(
        async () => {
          node.assertRunning();
          last = await node.status();
          return last !== null && check(last);
        },
        () => `galera ${name}: ${what} (last status ${JSON.stringify(last)})\n${node.errorLog()}`,
      );
      return last!;
    };
    const waitForGaleraSynced = async () => {
      const running = all.filter((region) => region.galera.running);
      await Promise.all(
        running.map((region) =>
          waitForGalera(
            region.name,
            synced(running.length),
            `Synced in a cluster of ${running.length}`,
          ),
        ),
      );
    };

    // Galera's first node bootstraps while Redis and NATS start everywhere.
    const [first, ...others] = all;
    await first!.galera.start({ bootstrap: true });
    for (const region of all) {
      region.startRedis();
      region.startNats();
    }
    await waitForGalera(first!.name, synced(1), 'bootstrapped');
    if (others.length > 0) {
      // Every node starts from a copy of the first's data, Galera position included, with
      // a saved primary component of them all (gvwstate.dat): started together, they
      // restore it (pc.recovery) with no bootstrap and no state transfer. The plain way, a
      // full rsync SST per joiner, took 10 s a node, one node at a time;
      // wsrep_sst_method=skip never finishes the IST that follows it.
      await first!.galera.shutdown();
      await copyGaleraData(
        first!.galera.config.datadir,
        others.map((region) => region.galera.config.datadir),
      );
      writeSavedComponent(all.map((region) => region.galera.config.datadir));
      step('galera seeded');
      await Promise.all(all.map((region) => region.galera.start()));
    }
    await Promise.all([
      waitForGaleraSynced().then(() => step('galera synced')),
      Promise.all(all.map((region) => region.waitForRedis())).then(() => step('redis')),
      Promise.all(
        all.map((region) => region.waitForNats(all.length - 1, options.jetStream === true)),
      ).then(() => step('nats gateways')),
    ]);

    const world: Regions = {
      regions,
      region: byName,
      get delayMs() {
        return delayMs;
      },
      startupMs: Date.now() - started,
      startupSteps: steps,
      cut: (name) => built.cut(byName(name).name),
      heal: (name) => built.heal(byName(name).name),
      crash: (name) => byName(name).killAll(),
      restart: async (name) => {
        const region = byName(name);
        if (region.galera.running) throw new Error(`region ${name} is running: crash it first`);
        await region.galera.start();
        region.startRedis();
        region.startNats();
        await Promise.all([
          waitForGaleraSynced(),
          region.waitForRedis(),
          region.waitForNats(all.length - 1),
        ]);
      },
      setDelay: async (ms) => {
        await built.setDelay(ms);
        delayMs = ms;
      },
      waitForGalera,
      waitForGaleraSynced,
      waitForJetStream: async () => {
        await Promise.all(all.map((region) => region.waitForNats(all.length - 1, true)));
      },
      roundTripMs: (from, to) => roundTripMs(byName(from), byName(to)),
      logs: () =>
        [...all.map((region) => region.logs()), `--- WAN hub ---\n${built.hubOutput()}`].join('\n'),
      stop,
    };
    return world;
  } catch (error) {
    const logs = [...regions.values()].map((region) => region.logs());
    await stop();
    if (error instanceof Error) error.message += `\n${logs.join('\n')}`;
    throw error;
  }
}

const synced = (size: number) => (status: GaleraStatus) =>
  status.ready &&
  status.clusterStatus === 'Primary' &&
  status.localState === 'Synced' &&
  status.clusterSize === size;

/** One region: its servers (restartable), and what runs in it. */
class RegionState implements Region {
  readonly name: string;
  readonly netns: string;
  readonly address: string;
  readonly redis: RegionRedis;
  readonly nats: RegionNats;
  readonly #processes = new Set<RegionProcess>();
  #redis: RegionProcess | null = null;
  #nats: RegionProcess | null = null;

  constructor(
    link: RegionLink,
    readonly galera: GaleraNode,
    readonly dir: string,
    readonly stopped: () => boolean,
  ) {
    this.name = link.name;
    this.netns = link.netns;
    this.address = link.address;
    this.redis = { port: REDIS_PORT, url: `redis://${link.address}:${REDIS_PORT}` };
    this.nats = {
      port: NATS_PORT,
      url: `nats://${link.address}:${NATS_PORT}`,
      monitorUrl: `http://${link.address}:${NATS_MONITOR_PORT}`,
      cluster: link.name,
    };
    mkdirSync(join(dir, 'redis'), { recursive: true });
    mkdirSync(join(dir, 'nats'), { recursive: true });
  }

  run(command: string, args: readonly string[], options?: RegionProcessOptions): RegionProcess {
    if (this.stopped()) throw new Error('the regions were stopped');
    const child = new RegionProcess(this.netns, command, args, options);
    this.#processes.add(child);
    return child;
  }

  get #natsConfig(): string {
    return join(this.dir, 'nats', 'nats.conf');
  }

  writeNatsConfiguration(all: readonly Region[]): void {
    writeFileSync(this.#natsConfig, natsConfiguration(this, all, join(this.dir, 'nats')));
  }

  /** A plain Redis: no persistence, so a restarted one is empty. */
  startRedis(): void {
    this.#redis = this.run('redis-server', [
      ...['--port', String(REDIS_PORT), '--bind', '0.0.0.0', '--protected-mode', 'no'],
      ...['--save', '', '--appendonly', 'no', '--dir', join(this.dir, 'redis')],
    ]);
  }

  /** NATS with JetStream; a restarted one keeps its store. */
  startNats(): void {
    this.#nats = this.run('nats-server', ['-c', this.#natsConfig]);
  }

  async waitForRedis(): Promise<void> {
    await until(
      async () => {
        if (this.#redis !== null && !this.#redis.running) {
          throw new Error(`redis in ${this.name} exited:\n${this.#redis.output()}`);
        }
        return redisPing(this.address, REDIS_PORT);
      },
      () => `redis in ${this.name} to answer`,
    );
  }

  /**
   * Waits until NATS has an outbound and an inbound gateway to each of `others` regions and,
   * with `jetStream`, until JetStream's meta group has a leader (its election took 2 to 5 s
   * more here).
   */
  async waitForNats(others: number, jetStream = false): Promise<void> {
    let last = '';
    const monitor = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${this.nats.monitorUrl}${path}`, {
        signal: AbortSignal.timeout(2000),
      });
      const body = (await response.json()) as T;
      last = `${path}: ${JSON.stringify(body).slice(0, 500)}`;
      return body;
    };
    await until(
      async () => {
        if (this.#nats !== null && !this.#nats.running) {
          throw new Error(`nats in ${this.name} exited:\n${this.#nats.output()}`);
        }
        try {
          const gateways = await monitor<Gatewayz>('/gatewayz');
          if (
            Object.keys(gateways.outbound_gateways ?? {}).length < others ||
            Object.keys(gateways.inbound_gateways ?? {}).length < others
          ) {
            return false;
          }
          if (!jetStream) return true;
          const jsz = await monitor<Jsz>('/jsz');
          return (jsz.meta_cluster?.leader ?? '') !== '';
        } catch (error) {
          last = String(error);
          return false;
        }
      },
      () => `nats in ${this.name} to join the supercluster (last ${last})`,
    );
  }

  /** SIGKILLs everything in the region: its servers and what run() started. */
  async killAll(): Promise<void> {
    await Promise.all([
      this.galera.kill(),
      ...[...this.#processes].map((child) => child.kill('SIGKILL')),
    ]);
    this.#processes.clear();
  }

  logs(): string {
    return [
      `--- galera ${this.name} ---\n${this.galera.errorLog()}`,
      ...[...this.#processes].map(
        (child) => `--- ${this.name}: ${child.command} ---\n${child.output().slice(-4000)}`,
      ),
    ].join('\n');
  }
}

function natsConfiguration(region: Region, all: readonly Region[], dir: string): string {
  const gateways = all
    .map(
      (other) =>
        `    { name: "${other.name}", url: "nats://${other.address}:${NATS_GATEWAY_PORT}" }`,
    )
    .join(',\n');
  // JetStream on servers joined by gateways needs a cluster block too (TOOLING.md): one
  // server per region, a route to itself. Pings every 2 s, 3 missed: a cut gateway is seen
  // dead within seconds, not the default minutes.
  return `server_name: "${region.name}"
listen: "0.0.0.0:${NATS_PORT}"
http: "0.0.0.0:${NATS_MONITOR_PORT}"
ping_interval: "2s"
ping_max: 3
jetstream {
  store_dir: "${join(dir, 'store')}"
  max_memory_store: 64MB
  max_file_store: 256MB
}
cluster {
  name: "${region.name}"
  listen: "${region.address}:6222"
  routes: [ "nats://${region.address}:6222" ]
  no_advertise: true
}
gateway {
  name: "${region.name}"
  listen: "0.0.0.0:${NATS_GATEWAY_PORT}"
  advertise: "${region.address}:${NATS_GATEWAY_PORT}"
  gateways: [
${gateways}
  ]
}
`;
}

/** Polls `check` until it holds; fails after WAIT_BOUND_MS with `what()`. */
async function until(check: () => Promise<boolean>, what: () => string): Promise<void> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One PING on a fresh connection from the test: true on +PONG. */
function redisPing(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => socket.write('PING\r\n'));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
  });
}

interface Gatewayz {
  readonly outbound_gateways?: Record<string, unknown>;
  readonly inbound_gateways?: Record<string, unknown>;
}

interface Jsz {
  readonly meta_cluster?: { readonly leader?: string };
}

/** Node code run inside a region: the smallest of 5 PING round trips on one connection. */
const ROUND_TRIP_SCRIPT = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1], () => {
  let best = Infinity, left = 5, sent = 0n;
  const ping = () => { sent = process.hrtime.bigint(); socket.write('PING\\r\\n'); };
  socket.on('data', () => {
    best = Math.min(best, Number(process.hrtime.bigint() - sent) / 1e6);
    if (--left > 0) ping(); else { console.log(best); socket.end(); }
  });
  ping();
});
socket.on('error', (e) => { console.error(e.message); process.exit(1); });
`;

async function roundTripMs(from: Region, to: Region): Promise<number> {
  const child = from.run(process.execPath, [
    '-e',
    ROUND_TRIP_SCRIPT,
    to.address,
    String(REDIS_PORT),
  ]);
  const { code, output } = await child.result();
  const value = Number(output.trim());
  if (code !== 0 || !Number.isFinite(value)) {
    throw new Error(`round trip ${from.name} → ${to.name} failed (${code}): ${output}`);
  }
  return value;
}

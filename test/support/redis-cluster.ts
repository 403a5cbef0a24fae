import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisClusterHandle {
  /** Seed nodes as host:port. */
  readonly nodes: readonly string[];
  stop(): Promise<void>;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Three ports whose cluster-bus twins (port + 10000) are free as well. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if (ports.includes(port)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

/**
 * A 3-master Redis Cluster on loopback, of this test's own (TOOLING.md: forms in ~2 s).
 * Never touches the shared Redis on 6379.
 */
export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'hop-redis-cluster-'));
  const ports = await freePorts(3);
  const servers: ChildProcess[] = ports.map((port) => {
    const nodeDir = join(dir, String(port));
    spawnSync('mkdir', ['-p', nodeDir]);
    return spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        nodeDir,
      ],
      { stdio: 'ignore' },
    );
  });
  const stop = async () => {
    for (const server of servers) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await waitFor(() => ping(port), `redis on ${port}`);
    const created = spawnSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (created.status !== 0)
      throw new Error(`cluster create failed: ${created.stdout}${created.stderr}`);
    for (const port of ports) {
      await waitFor(
        () => clusterInfo(port).includes('cluster_state:ok'),
        `cluster state on ${port}`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`), stop };
}

function ping(port: number): boolean {
  return spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.includes(
    'PONG',
  );
}

function clusterInfo(port: number): string {
  return spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' })
    .stdout;
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} not ready after 300 polls`);
}

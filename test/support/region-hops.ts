import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.js';
import type { Region, RegionProcess, RegionsOwner } from './regions/three-regions.js';
import { TEMP_ROOT } from './regions/network.js';

const HOP_CLI = fileURLToPath(new URL('../../dist/cli/hop.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The admin key every region's instances share (the bootstrap key, made once). */
export const REGIONS_ADMIN_KEY = 'hop_regions_admin_key_0123456789abcdef';

/** A hop process in a region: `hop serve` (its base URL) or `hop worker`. */
export interface RegionHop {
  readonly region: string;
  /** `http://<region address>:<port>`, reached from the test without the regions' delay. */
  readonly url: string;
  readonly process: RegionProcess;
}

/**
 * What every hop of a region is given (issue 25's topology): the region's Galera node, its
 * Redis and its NATS server; the database, the subject and the console secret are the same
 * everywhere. Clicks flush often so that counts settle quickly.
 */
export function regionEnv(region: Region, database: string): Record<string, string> {
  return {
    HOP_REGION: region.name,
    HOP_DATABASE_URL: `mysql://root@${region.address}:3306/${database}`,
    HOP_REDIS_URL: region.redis.url,
    HOP_NATS_URL: region.nats.url,
    HOP_BOOTSTRAP_ADMIN_KEY: REGIONS_ADMIN_KEY,
    HOP_CONSOLE_SECRET: 'regions-console-secret-0123456789abcdef',
    HOP_PUBLIC_URL: 'http://hop.regions.test',
    HOP_CLICK_FLUSH_INTERVAL: '200ms',
    HOP_LOG_LEVEL: 'info',
    // Busy 2-core CI machine: shedding is tested on its own.
    HOP_SHED_LAG: '1h',
    // No sweeper: nothing here expires, and its runs would only add to the logs.
    HOP_SWEEP_INTERVAL: '0',
  };
}

/**
 * Starts `hop serve` (or `hop worker`) inside the region's namespace on `port`, with `env`
 * besides where it listens and its own data folder, and waits (`polls` of 10 ms at most)
 * until its /healthz answers 200. Killed when the owner (a test, or the regions bench) is
 * done if it is still running; its data folder is removed.
 */
export async function startRegionHop(
  owner: RegionsOwner,
  region: Region,
  command: 'serve' | 'worker',
  port: number,
  env: Record<string, string>,
  polls = 3000,
): Promise<RegionHop> {
  const dataDir = mkdtempSync(join(TEMP_ROOT, `hop-region-${region.name}-`));
  const child = region.run(process.execPath, [HOP_CLI, command], {
    cwd: ROOT,
    env: {
      HOP_HOST: '0.0.0.0',
      [command === 'serve' ? 'HOP_PORT' : 'HOP_WORKER_PORT']: String(port),
      HOP_DATA_DIR: dataDir,
      ...env,
    },
  });
  owner.after(async () => {
    await child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `http://${region.address}:${port}`;
  await eventually(
    async () => {
      if (child.child.exitCode !== null) {
        throw new Error(`hop ${command} in ${region.name} exited:\n${child.output()}`);
      }
      try {
        return (await fetch(`${url}/healthz`)).status === 200;
      } catch {
        return false;
      }
    },
    `hop ${command} in region ${region.name} answering`,
    polls,
  );
  return { region: region.name, url, process: child };
}

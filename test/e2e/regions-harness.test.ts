/**
 * The three-region harness itself (test/support/regions/): the delay between regions is
 * there, Galera replicates across them, the NATS supercluster carries a message from one
 * region to another, and a region cut off and healed behaves as one would expect.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import type { RowDataPacket } from 'mysql2/promise';
import { startRegions, type Regions } from '../support/regions/three-regions.js';

const DELAY_MS = 30;

test('three regions: delay, Galera replication, NATS gateways, a cut and a heal', async (t) => {
  const world = await startRegions(t, { names: ['a', 'b', 'c'], delayMs: DELAY_MS });
  if (world === null) return;
  t.diagnostic(`three regions up in ${world.startupMs} ms (${JSON.stringify(world.startupSteps)})`);
  const a = world.region('a');
  const c = world.region('c');

  try {
    await t.test('a round trip from a to b takes at least twice the one-way delay', async () => {
      const rtt = await world.roundTripMs('a', 'b');
      t.diagnostic(`round trip a → b: ${rtt.toFixed(1)} ms (one-way delay ${DELAY_MS} ms)`);
      assert.ok(rtt >= 2 * DELAY_MS, `round trip ${rtt} ms < ${2 * DELAY_MS} ms`);
    });

    await t.test('a row written in a is read in c', async () => {
      await a.galera.query('CREATE DATABASE harness');
      await a.galera.query(
        'CREATE TABLE harness.notes (id INT PRIMARY KEY, body VARCHAR(100) NOT NULL)',
      );
      await a.galera.query("INSERT INTO harness.notes VALUES (1, 'written in a')");
      // Galera is virtually synchronous: a commit returns once certified everywhere, but c
      // applies it asynchronously; wsrep_sync_wait makes c's read wait for what it received.
      const rows = await readInRegion(world, 'c', 'SELECT body FROM harness.notes WHERE id = 1');
      assert.deepEqual(rows, [{ body: 'written in a' }]);
    });

    await t.test('a core NATS message published in a reaches a subscriber in c', async () => {
      await assertNatsCarries(a.nats.url, c.nats.url, 'harness.before-cut');
    });

    await t.test('c cut off: c non-Primary, a and b Primary with 2, a write in a', async () => {
      await world.cut('c');
      await world.waitForGalera('c', (s) => s.clusterStatus !== 'Primary', 'non-Primary');
      for (const name of ['a', 'b']) {
        await world.waitForGalera(
          name,
          (s) => s.clusterStatus === 'Primary' && s.clusterSize === 2 && s.localState === 'Synced',
          'Primary with 2',
        );
      }
      const cStatus = await c.galera.status();
      assert.notEqual(cStatus?.clusterStatus, 'Primary');
      await a.galera.query("INSERT INTO harness.notes VALUES (2, 'written while c was cut')");
      const inB = await readInRegion(world, 'b', 'SELECT body FROM harness.notes WHERE id = 2');
      assert.deepEqual(inB, [{ body: 'written while c was cut' }]);
      // c refuses to serve what it cannot know is current (ER_UNKNOWN_COM_ERROR, 1047).
      await assert.rejects(c.galera.query('SELECT body FROM harness.notes'), /WSREP|1047/i);
    });

    await t.test(
      'c healed: Synced again, caught up by IST, the row written meanwhile read in c',
      async () => {
        const transfersBefore = c.galera.stateTransfers().length;
        await world.heal('c');
        await world.waitForGaleraSynced();
        const rows = await readInRegion(world, 'c', 'SELECT body FROM harness.notes WHERE id = 2');
        assert.deepEqual(rows, [{ body: 'written while c was cut' }]);
        const transfers = c.galera.stateTransfers().slice(transfersBefore);
        assert.ok(transfers.includes('IST'), `c caught up by ${JSON.stringify(transfers)}`);
        assert.ok(!transfers.includes('SST'), `c needed a full SST: ${JSON.stringify(transfers)}`);
      },
    );

    await t.test('after the heal a message from a reaches c again', async () => {
      await assertNatsCarries(a.nats.url, c.nats.url, 'harness.after-heal');
    });
  } catch (error) {
    t.diagnostic(world.logs());
    throw error;
  }
});

/** A read in `region` that waits until the node has applied what it had received. */
async function readInRegion(world: Regions, region: string, sql: string): Promise<RowDataPacket[]> {
  const connection = await world.region(region).galera.connect();
  try {
    await connection.query('SET SESSION wsrep_sync_wait = 1');
    const [rows] = await connection.query<RowDataPacket[]>(sql);
    return rows.map((row) => ({ ...row }));
  } finally {
    await connection.end();
  }
}

/**
 * Subscribes in one region and publishes in another until a message arrives: gateways
 * propagate a new subscription's interest asynchronously, so the first messages may be
 * sent before it is known (bounded, not a timing claim).
 */
async function assertNatsCarries(from: string, to: string, subject: string): Promise<void> {
  const connections: NatsConnection[] = [];
  try {
    const subscriber = await natsConnect({ servers: to, timeout: 5000 });
    connections.push(subscriber);
    const publisher = await natsConnect({ servers: from, timeout: 5000 });
    connections.push(publisher);
    const subscription = subscriber.subscribe(subject, { max: 1 });
    await subscriber.flush();
    const received = (async () => {
      for await (const message of subscription) return message.string();
      return null;
    })();
    let got: string | null | undefined;
    void received.then((value) => (got = value));
    for (let i = 0; i < 600 && got === undefined; i++) {
      publisher.publish(subject, `hello from ${from} #${i}`);
      await publisher.flush();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(typeof got, 'string', `no message on ${subject} from ${from} reached ${to}`);
    assert.match(got ?? '', new RegExp(`^hello from ${from.replace(/[.]/g, '\\.')}`));
  } finally {
    for (const connection of connections) await connection.close().catch(() => undefined);
  }
}

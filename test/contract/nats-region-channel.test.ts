import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { NatsRegionChannel } from '../../src/adapters/nats/nats-region-channel.js';
import type { RegionLinkChange } from '../../src/ports/region-channel.js';
import { eventually } from '../support/eventually.js';
import { NATS_URL, requireNats } from '../support/require-nats.js';

/** A channel of `region` on the shared NATS, on this test's own subject, closed after it. */
function channelOf(t: TestContext, subject: string, region: string): NatsRegionChannel {
  const channel = new NatsRegionChannel({
    servers: [NATS_URL],
    subject,
    region,
    onStatus: () => undefined,
  });
  t.after(() => channel.close());
  return channel;
}

/** Listens on `channel`, keeping what it hears. */
function heard(channel: NatsRegionChannel): RegionLinkChange[] {
  const changes: RegionLinkChange[] = [];
  channel.onChange((change) => changes.push(change));
  return changes;
}

describe('NatsRegionChannel (issue 25, ADR 0141)', () => {
  test("one instance of each other region hears a change; the change's own region does not", async (t) => {
    if (!(await requireNats(t))) return;
    const subject = `hop.test.${randomBytes(6).toString('hex')}`;
    const a = channelOf(t, subject, 'a');
    const aHeard = heard(a);
    const aPeerHeard = heard(channelOf(t, subject, 'a'));
    const bFirst = heard(channelOf(t, subject, 'b'));
    const bSecond = heard(channelOf(t, subject, 'b'));
    const cHeard = heard(channelOf(t, subject, 'c'));
    // Subscriptions are made once connected: a first message that no one heard is sent again.
    let sent = 0;
    await eventually(async () => {
      sent++;
      a.publish({ kind: 'changed', key: `code${sent}`, version: 2, region: 'a' });
      return cHeard.length > 0 && bFirst.length + bSecond.length > 0;
    }, 'region b and c hearing region a');
    const last = `code${sent}`;
    a.publish({ kind: 'created', key: 'go.example/new.code~1', version: 1, region: 'a' });
    await eventually(
      async () => cHeard.some((change) => change.kind === 'created'),
      'the create reaching c',
    );
    assert.deepEqual(cHeard.at(-1), {
      kind: 'created',
      key: 'go.example/new.code~1',
      version: 1,
      region: 'a',
    });
    await eventually(
      async () => [...bFirst, ...bSecond].some((change) => change.kind === 'created'),
      'the create reaching b',
    );
    // One instance of b heard each message, never both.
    const bKeys = [...bFirst, ...bSecond].map((change) => change.key);
    assert.equal(bKeys.filter((key) => key === 'go.example/new.code~1').length, 1);
    assert.equal(new Set(bKeys).size, bKeys.length);
    assert.ok(cHeard.some((change) => change.key === last));
    // Region a's own changes reached its caches through its Redis: its channel hears none.
    assert.deepEqual(aHeard, []);
    assert.deepEqual(aPeerHeard, []);
  });

  test('a malformed message on the subject is ignored', async (t) => {
    if (!(await requireNats(t))) return;
    const subject = `hop.test.${randomBytes(6).toString('hex')}`;
    const a = channelOf(t, subject, 'a');
    const bHeard = heard(channelOf(t, subject, 'b'));
    const { connect } = await import('@nats-io/transport-node');
    const raw = await connect({ servers: NATS_URL });
    t.after(() => raw.close());
    await eventually(async () => {
      raw.publish(subject, 'a changed not-a-number code');
      raw.publish(subject, 'a renamed 3 code');
      raw.publish(subject, 'garbage');
      a.publish({ kind: 'changed', key: 'good', version: 3, region: 'a' });
      return bHeard.length > 0;
    }, 'a good change reaching b');
    assert.ok(bHeard.every((change) => change.key === 'good' && change.version === 3));
  });
});

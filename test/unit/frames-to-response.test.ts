import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { test } from 'node:test';
import { FramesToResponse } from '../../src/main/frames-to-response.js';
import type { FromIntegrationsThread } from '../../src/main/integrations-thread.js';

function harness() {
  const posted: FromIntegrationsThread[] = [];
  let ended = 0;
  const frames = new FramesToResponse(
    7,
    (message) => posted.push(message),
    () => ended++,
  );
  return { frames, posted, ended: () => ended };
}

test('frames sent in one turn are posted together, in order, once', async () => {
  const { frames, posted } = harness();
  assert.equal(frames.send('a\n\n'), true);
  assert.equal(frames.send('b\n\n'), true);
  assert.deepEqual(posted, []);
  await nextTurn();
  assert.deepEqual(posted, [{ kind: 'frames', id: 7, text: 'a\n\nb\n\n' }]);
  frames.send('c\n\n');
  await nextTurn();
  assert.deepEqual(posted.at(-1), { kind: 'frames', id: 7, text: 'c\n\n' });
});

test('past a MiB untaken it says so, and is ready again once the response took enough', async () => {
  const { frames } = harness();
  const big = 'x'.repeat(600 * 1024);
  assert.equal(frames.send(big), true);
  assert.equal(frames.send(big), false);
  let ready = false;
  const waiting = frames.ready().then(() => {
    ready = true;
  });
  await nextTurn();
  assert.equal(ready, false, 'nothing taken yet');
  frames.taken(big.length);
  await waiting;
  assert.equal(ready, true);
  await frames.ready();
});

test('an end posts what was gathered first, then the end, and forgets the stream; nothing after', async () => {
  const { frames, posted, ended } = harness();
  frames.send('last\n\n');
  frames.end('too-slow');
  assert.deepEqual(posted, [
    { kind: 'frames', id: 7, text: 'last\n\n' },
    { kind: 'end', id: 7, reason: 'too-slow' },
  ]);
  assert.equal(ended(), 1);
  frames.end('closing');
  frames.send('more\n\n');
  await nextTurn();
  assert.equal(posted.length, 2);
  assert.equal(ended(), 1);
});

test('a dropped stream (its client gone) posts nothing more and frees a waiting hub', async () => {
  const { frames, posted } = harness();
  frames.send('x'.repeat(2 * 1024 * 1024));
  const waiting = frames.ready();
  frames.drop();
  await waiting;
  await nextTurn();
  assert.deepEqual(posted, []);
});

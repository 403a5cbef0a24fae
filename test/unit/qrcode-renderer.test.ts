import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QrcodeRenderer } from '../../src/adapters/qr/qrcode-renderer.js';

const SHORT_URL = 'http://localhost:8080/AbCdEf1';

test('a PNG from the thread holds only its own bytes, and is kept for the next ask', async (t) => {
  const qr = new QrcodeRenderer();
  t.after(() => qr.close());
  const first = await qr.render(SHORT_URL, 'png', 64);
  assert.equal(first.contentType, 'image/png');
  assert.ok(first.body.length < 4096, `${first.body.length} bytes`);
  // Not a view into a copy of the thread's 8 KiB pool block, which the cache would keep.
  assert.equal(first.body.buffer.byteLength, first.body.length);
  assert.equal((await qr.render(SHORT_URL, 'png', 64)).body, first.body, 'the same buffer');
  assert.notEqual((await qr.render(SHORT_URL, 'png', 65)).body, first.body);
});

test('closing the renderer fails the PNGs still being drawn, and nothing hangs', async () => {
  const qr = new QrcodeRenderer();
  const failed = assert.rejects(qr.render(SHORT_URL, 'png', 2048), /stopped/);
  await qr.close();
  await failed;
});

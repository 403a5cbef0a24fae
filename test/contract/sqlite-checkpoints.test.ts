import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import {
  startBackgroundCheckpoints,
  type CheckpointResult,
} from '../../src/adapters/sqlite/background-checkpoints.js';
import { eventually } from '../support/eventually.js';
import { makeLink } from './store-factories.js';

test('a serving SQLite store checkpoints its WAL from a worker thread', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-checkpoint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'hop.db');
  const results: CheckpointResult[] = [];
  const store = SqliteStore.open({
    file,
    backgroundCheckpoints: {
      intervalMs: 20,
      onResult: (result) => {
        results.push(result);
      },
    },
  });

  // Automatic checkpoints are off on the store's own connection: commits only append.
  await store.links.importLinks(Array.from({ length: 2000 }, () => makeLink()));
  assert.ok(statSync(`${file}-wal`).size > 100_000, 'the commit went to the WAL');

  await eventually(
    async () => results.some((r) => r.kind === 'checkpointed' && r.copiedPages > 0),
    'a checkpoint that copied pages',
  );
  assert.ok(
    results.every((result) => result.kind === 'checkpointed'),
    JSON.stringify(results),
  );
  await store.close();
  // After close the database file holds every link, with or without its WAL.
  const reopened = SqliteStore.open({ file });
  t.after(() => reopened.close());
  const { codes } = await reopened.codeScan.scanCodes(null, 5000);
  assert.equal(codes.length, 2000);
});

test('closing a store stops its checkpoint worker (the process can exit)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-checkpoint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = SqliteStore.open({
    file: join(dir, 'hop.db'),
    backgroundCheckpoints: { intervalMs: 10, onResult: () => undefined },
  });
  await store.close();
  await store.close();
});

test('a checkpoint worker that dies unasked says so, with its reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-checkpoint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const results: CheckpointResult[] = [];
  let lost = 0;
  // No such file: the worker's connection cannot open, and the worker ends.
  const checkpoints = startBackgroundCheckpoints(
    join(dir, 'missing.db'),
    10,
    (result) => results.push(result),
    () => lost++,
  );
  await eventually(async () => lost === 1, 'the loss reported');
  assert.equal(results[0]?.kind, 'failed');
  assert.match(results[0]?.kind === 'failed' ? results[0].reason : '', /CANTOPEN|exist/i);
  await checkpoints.stop();
  assert.equal(lost, 1, 'stopping afterwards is not a second loss');
});

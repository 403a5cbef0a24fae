import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { staleBuildReason } from '../../scripts/build-stamp.js';

/** A checkout in a temp folder: its files with the modification times given (seconds). */
function checkout(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'hop-build-stamp-'));
  for (const [file, seconds] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), seconds, seconds);
  }
  return root;
}

test('npm start builds when an output or the stamp is missing, or a source is newer than the stamp', (t) => {
  const built = { 'dist/cli/hop.js': 2000, 'console/dist/index.html': 2000 };
  const cases: [Record<string, number>, string | null][] = [
    [{ 'src/cli/hop.ts': 1000, ...built, 'dist/.build-stamp': 1500 }, null],
    [{ 'src/cli/hop.ts': 1000, 'dist/.build-stamp': 1500 }, 'dist/cli/hop.js is missing'],
    [{ 'src/cli/hop.ts': 1000, ...built }, 'dist/.build-stamp is missing'],
    [
      { 'src/cli/hop.ts': 1600, ...built, 'dist/.build-stamp': 1500 },
      'src changed since the last build',
    ],
    [
      { 'console/src/main.tsx': 1600, ...built, 'dist/.build-stamp': 1500 },
      'console/src changed since the last build',
    ],
    [
      { 'package-lock.json': 1600, ...built, 'dist/.build-stamp': 1500 },
      'package-lock.json changed since the last build',
    ],
  ];
  for (const [files, reason] of cases) {
    const root = checkout(files);
    t.after(() => rmSync(root, { recursive: true, force: true }));
    // Folders are dated now: only the files' own times may make a build stale.
    for (const folder of ['src', 'src/cli', 'console', 'console/src']) {
      try {
        utimesSync(join(root, folder), 1000, 1000);
      } catch {
        // not in this case
      }
    }
    assert.equal(staleBuildReason(root), reason, JSON.stringify(files));
  }
});

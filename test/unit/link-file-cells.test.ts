import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromFileCell, toFileCell } from '../../src/services/links/link-file-layout.js';

/** What spreadsheets run as a formula: a cell starting with = + - @, a tab or a CR. */
const RUNS_AS_FORMULA = /^[=+\-@\t\r]/;

test('a link file cell is never a formula, and reads back as the text it was made from', () => {
  const examples: [string, string][] = [
    ['=HYPERLINK("http://evil.example","click")', `'=HYPERLINK("http://evil.example","click")`],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['-A1|b', "'-A1|b"],
    ['+1', "'+1"],
    ['\tx', "'\tx"],
    ["'=x", "''=x"],
    ["'quoted", "'quoted"],
    ['plain = text', 'plain = text'],
    ['', ''],
  ];
  for (const [text, cell] of examples) {
    assert.equal(toFileCell(text), cell, text);
    assert.equal(fromFileCell(cell), text, cell);
  }
  // Texts built to hit the rule's edges: apostrophes, formula characters, anything after.
  const edgy = fc
    .tuple(
      fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ' ') }),
      fc.string(),
    )
    .map(([head, tail]) => head + tail);
  fc.assert(
    fc.property(fc.oneof(edgy, fc.string()), (text) => {
      const cell = toFileCell(text);
      assert.doesNotMatch(cell, RUNS_AS_FORMULA);
      assert.equal(fromFileCell(cell), text);
    }),
    { numRuns: 20_000 },
  );
});

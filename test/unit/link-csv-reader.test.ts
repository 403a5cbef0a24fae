import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { LineCounter } from '../../src/cli/csv/line-counter.js';
import { LinkCsvError, MAX_ROW_BYTES, openLinkCsv } from '../../src/cli/csv/read-link-csv.js';
import { tempDataDir } from '../support/temp-data.js';

/** ADR 0072: every row of a link file carries the physical line it starts on. */

type Seen = [line: number, cells: readonly string[] | string];

async function readAll(t: TestContext, content: string | Buffer): Promise<Seen[]> {
  const file = join(tempDataDir(t, 'hop-csv-'), 'links.csv');
  writeFileSync(file, content);
  const csv = await openLinkCsv(file);
  const seen: Seen[] = [[1, csv.header]];
  for await (const row of csv.rows) {
    seen.push([
      row.line,
      'cells' in row ? row.cells : `${row.fatal ? 'fatal' : 'skip'}: ${row.malformed}`,
    ]);
  }
  return seen;
}

/** Each row after the header as its line and first cell, or the start of its problem. */
function brief(seen: readonly Seen[], width: number): [number, string | undefined][] {
  return seen
    .slice(1)
    .map(([line, what]) => [line, typeof what === 'string' ? what.slice(0, width) : what[0]]);
}

async function refusal(t: TestContext, content: string | Buffer, message: RegExp): Promise<void> {
  const file = join(tempDataDir(t, 'hop-csv-'), 'links.csv');
  writeFileSync(file, content);
  await assert.rejects(openLinkCsv(file), (error: unknown) => {
    assert.ok(error instanceof LinkCsvError);
    assert.match(error.message, message);
    return true;
  });
}

describe('reading a link file', () => {
  // The three below were found by test/fuzz/link-csv.fuzz.test.ts (ADR 0088).
  test('a row with several bad quotes is one rejection, not one per quote', async (t) => {
    const seen = await readAll(t, 'destination\na"b"c\nhttps://ok.example/\n');
    assert.deepEqual(brief(seen, 4), [
      [2, 'skip'],
      [3, 'https://ok.example/'],
    ]);
  });

  test('a CRLF file whose last line ends in a bare LF: every row at its line, intact', async (t) => {
    const seen = await readAll(
      t,
      'title,destination\r\nt,https://a.example/\r\nu,https://b.example/\n',
    );
    assert.deepEqual(seen, [
      [1, ['title', 'destination']],
      [2, ['t', 'https://a.example/']],
      [3, ['u', 'https://b.example/']],
    ]);
  });

  test('a file with CR-only line endings is refused as a whole, saying why', async (t) => {
    await refusal(t, 'destination\rhttps://a.example/\rnot a url\r', /CR alone/);
  });

  test('a UTF-16 file, either byte order, is refused as a whole, saying why', async (t) => {
    const text = 'destination\nhttps://a.example/\nnot a url\n';
    const littleEndian = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const bigEndian = Buffer.from(littleEndian).swap16();
    for (const content of [littleEndian, bigEndian]) {
      await refusal(t, content, /is UTF-16: save it as UTF-8/);
    }
  });

  test('a row spanning lines is at its first line; blank lines are skipped, not counted as rows', async (t) => {
    const seen = await readAll(
      t,
      'destination,title\nhttps://a.example/,one\n"https://b.example/","two\nlines"\n\n\nhttps://c.example/,"x,""y"""\n',
    );
    assert.deepEqual(seen, [
      [1, ['destination', 'title']],
      [2, ['https://a.example/', 'one']],
      [3, ['https://b.example/', 'two\nlines']],
      [7, ['https://c.example/', 'x,"y"']],
    ]);
  });

  test('CRLF line breaks inside quoted cells count once (csv-parse counts them twice)', async (t) => {
    const seen = await readAll(
      t,
      'destination,title\r\n"https://a.example/","a\r\nb\r\nc"\r\n\r\nhttps://b.example/,d\r\nhttps://c.example/,e',
    );
    assert.deepEqual(
      seen.map(([line]) => line),
      [1, 2, 6, 7],
    );
    assert.deepEqual(seen[1]?.[1], ['https://a.example/', 'a\r\nb\r\nc']);
  });

  test('a UTF-8 byte order mark is dropped from the header', async (t) => {
    const seen = await readAll(t, Buffer.from('\uFEFFdestination\nhttps://ü.example/\n', 'utf8'));
    assert.deepEqual(seen, [
      [1, ['destination']],
      [2, ['https://ü.example/']],
    ]);
  });

  test('rows of another width are handed on as they are, for the import to refuse', async (t) => {
    const seen = await readAll(
      t,
      'destination,alias\nhttps://a.example/\nhttps://b.example/,b,extra\n',
    );
    assert.deepEqual(seen.slice(1), [
      [2, ['https://a.example/']],
      [3, ['https://b.example/', 'b', 'extra']],
    ]);
  });

  test('a stray quote spoils its row only: the next line is read again', async (t) => {
    const seen = await readAll(
      t,
      'destination,title\nhttps://a.example/,a\nhttps://b"x.example/,b\n\nhttps://c"x.example/,c\n"https://d.example/","d\nd"\nhttps://e.example/,e\n',
    );
    assert.deepEqual(brief(seen, 11), [
      [2, 'https://a.example/'],
      [3, 'skip: a quo'],
      [5, 'skip: a quo'],
      [6, 'https://d.example/'],
      [8, 'https://e.example/'],
    ]);
  });

  test('a quote never closed ends the file at the row that opened it', async (t) => {
    const seen = await readAll(
      t,
      'destination,title\nhttps://a.example/,a\nhttps://b.example/,"b\nhttps://c.example/,c\nhttps://d.example/,d\n',
    );
    assert.deepEqual(seen.slice(1), [
      [2, ['https://a.example/', 'a']],
      [3, 'fatal: a quoted cell is never closed'],
    ]);
  });

  test('text after a closing quote on a line of its own: that row is refused, the next line read', async (t) => {
    const seen = await readAll(
      t,
      'destination,title\nhttps://a.example/,"a"b\n\nhttps://c.example/,"say "hi" there"\nhttps://d.example/,"d\nd"\nhttps://e.example/,"x"y,"z"\n',
    );
    assert.deepEqual(seen.slice(1), [
      [2, 'skip: a quoted cell goes on after its closing quote'],
      [4, 'skip: a quoted cell goes on after its closing quote'],
      [5, ['https://d.example/', 'd\nd']],
      [7, 'skip: a quoted cell goes on after its closing quote'],
    ]);
  });

  test('text after a closing quote where quotes do not pair up on the line ends the file there', async (t) => {
    // Line 3's cell may really span lines 3 and 4 ("b...\nc"), or line 4 start a row:
    // nothing after it can be told apart, so nothing after it is read.
    const seen = await readAll(
      t,
      'destination,title\nhttps://a.example/,a\nhttps://b.example/,"b"x,"b2\nhttps://c.example/,c"\nhttps://d.example/,d\n',
    );
    assert.deepEqual(seen.slice(1), [
      [2, ['https://a.example/', 'a']],
      [3, 'fatal: a quoted cell goes on after its closing quote'],
    ]);
  });

  test('a smart link at every limit (about 410 KB of quoted JSON) is one row (ADR 0113)', async (t) => {
    const rules = JSON.stringify([
      { destination: 'https://a.example/', when: { query: { q: 'x'.repeat(420_000) } } },
    ]);
    const seen = await readAll(
      t,
      `destination,rules\nhttps://a.example/,"${rules.replaceAll('"', '""')}"\nhttps://b.example/,\n`,
    );
    assert.deepEqual(
      seen.slice(1).map(([line, what]) => [line, what[1]?.length]),
      [
        [2, rules.length],
        [3, 0],
      ],
    );
  });

  test('a row longer than 1 MiB on a line of its own is refused, and the next line read', async (t) => {
    const seen = await readAll(
      t,
      `destination,title\nhttps://a.example/,a\nhttps://b.example/${'x'.repeat(MAX_ROW_BYTES + 5_000)},b\nhttps://c.example/,c\n`,
    );
    assert.deepEqual(brief(seen, 36), [
      [2, 'https://a.example/'],
      [3, `skip: the row is longer than ${MAX_ROW_BYTES}`],
      [4, 'https://c.example/'],
    ]);
  });

  test('a row longer than 1 MiB with a quote left open ends the file instead of filling memory', async (t) => {
    const seen = await readAll(
      t,
      `destination,title\nhttps://a.example/,a\nhttps://b.example/,"${'x'.repeat(MAX_ROW_BYTES + 5_000)}\nhttps://c.example/,c\n`,
    );
    assert.deepEqual(brief(seen, 37), [
      [2, 'https://a.example/'],
      [3, `fatal: the row is longer than ${MAX_ROW_BYTES}`],
    ]);
  });

  test('an empty file, a file that is not there, or a header that is not CSV cannot be read', async (t) => {
    await refusal(t, '', /is empty: its first line must be the header, such as destination,alias,/);
    await refusal(t, '\n\n', /is empty/);
    await refusal(
      t,
      'destination,"ti"tle\nhttps://a.example/,a\n',
      /^line 1: the header is not valid CSV/,
    );
    await assert.rejects(
      openLinkCsv('/nonexistent/links.csv'),
      /cannot read \/nonexistent\/links\.csv: ENOENT/,
    );
  });
});

describe('LineCounter', () => {
  test('answers lines of offsets across chunk boundaries, however the bytes were cut', () => {
    const text = Buffer.from('ab\ncd\r\n\r\n\nef\ng');
    for (const size of [1, 2, 3, 5, text.length]) {
      const counter = new LineCounter();
      for (let at = 0; at < text.length; at += size) counter.write(text.subarray(at, at + size));
      assert.equal(counter.lineAt(0), 1, `chunks of ${size}`);
      assert.equal(counter.lineAt(2), 1);
      assert.equal(counter.lineAt(3), 2);
      assert.equal(counter.lineOfContentAt(5), 5, 'the blank lines after "cd" are passed over');
      assert.equal(counter.lineAt(12), 5);
      assert.equal(counter.lineAt(13), 6);
      assert.equal(counter.lineAt(text.length), 6);
    }
  });
});

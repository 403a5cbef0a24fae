import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { PROBLEMS, type ProblemKind } from '../../src/http/problems.js';

/**
 * docs/problems.md has one heading per problem kind (ADR 0001), and each section opens with
 * the kind's status. Clients read that page to know what a `type` means, so it must not miss
 * a kind, keep one that is gone, or give a status the API does not send.
 */

const DOC = readFileSync(new URL('../../docs/problems.md', import.meta.url), 'utf8');

interface DocumentedKind {
  heading: string;
  firstParagraph: string;
}

function documentedKinds(markdown: string): DocumentedKind[] {
  const sections = markdown.split(/^## /m).slice(1);
  return sections.map((section) => {
    const [heading = '', ...rest] = section.split('\n');
    const firstParagraph =
      rest
        .join('\n')
        .trim()
        .split(/\n\s*\n/)[0] ?? '';
    return { heading: heading.trim(), firstParagraph };
  });
}

const documented = documentedKinds(DOC);
const kinds = Object.keys(PROBLEMS) as ProblemKind[];

describe('docs/problems.md', () => {
  test('has a heading for every problem kind', () => {
    const headings = new Set(documented.map((kind) => kind.heading));
    const missing = kinds.filter((kind) => !headings.has(kind));
    assert.deepEqual(missing, [], 'kinds in src/http/problems.ts with no heading in the doc');
  });

  test('has no heading for a kind that does not exist', () => {
    const known = new Set<string>(kinds);
    const stale = documented.map((kind) => kind.heading).filter((heading) => !known.has(heading));
    assert.deepEqual(stale, [], 'headings in the doc with no kind in src/http/problems.ts');
  });

  test('has each kind once', () => {
    const headings = documented.map((kind) => kind.heading);
    const repeated = headings.filter((heading, index) => headings.indexOf(heading) !== index);
    assert.deepEqual(repeated, []);
  });

  test("opens each kind's section with the status the API sends", () => {
    for (const { heading, firstParagraph } of documented) {
      const problem = PROBLEMS[heading as ProblemKind] as { status: number } | undefined;
      if (problem === undefined) continue;
      const status = /^(\d{3})\b/.exec(firstParagraph)?.[1];
      assert.equal(Number(status), problem.status, `the status under "## ${heading}"`);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HopError, type ErrorKind } from '../../src/domain/errors.js';
import type { Link } from '../../src/domain/link.js';
import { parseSmartInput, type CheckUrl } from '../../src/domain/smart/parse-smart-input.js';
import { smartOptionsJson } from '../../src/domain/smart/smart-options-json.js';
import type { SmartOptions } from '../../src/domain/smart/smart-options.js';
import { toLinkFileRecord } from '../../src/services/links/export-links.js';
import {
  LINK_FILE_COLUMNS,
  readLinkFileLayoutOrThrow,
  type LinkFileLayout,
} from '../../src/services/links/link-file-layout.js';
import type { CreateLinkInput } from '../../src/services/links/create-link.js';
import { readLinkRowOrThrow, type LinkRowRequest } from '../../src/services/links/read-link-row.js';
import { smartOptionsAfter } from '../../src/services/links/smart-link-fields.js';

/** ADR 0069: a row of a link file becomes a create request, or a problem with the row. */

const FULL = readLinkFileLayoutOrThrow([...LINK_FILE_COLUMNS]);
const NOW = Date.UTC(2026, 0, 1);

function row(cells: Partial<Record<(typeof LINK_FILE_COLUMNS)[number], string>>): string[] {
  return LINK_FILE_COLUMNS.map((column) => cells[column] ?? '');
}

/** The request a row should make: absent fields unless given. */
function request(input: Partial<CreateLinkInput>, disabled = false): LinkRowRequest {
  return {
    input: {
      destination: '',
      alias: undefined,
      expiresAt: undefined,
      statusCode: undefined,
      title: undefined,
      tags: undefined,
      ...input,
    },
    disabled,
  };
}

function refusal(fn: () => unknown, kind: ErrorKind, detail: RegExp, field?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof HopError);
    assert.equal(error.kind, kind);
    assert.match(error.detail, detail);
    if (field !== undefined) assert.equal(error.fields[0]?.field, field);
    return true;
  });
}

describe('a link file header', () => {
  test('names any of the columns in any order, without case or surrounding spaces', () => {
    const layout = readLinkFileLayoutOrThrow([' Tags', 'DESTINATION ', 'alias']);
    assert.deepEqual(layout, { width: 3, cellOf: { tags: 0, destination: 1, alias: 2 } });
  });

  test('without a destination column is refused', () => {
    refusal(
      () => readLinkFileLayoutOrThrow(['alias', 'title']),
      'invalid-request',
      /no "destination" column/,
      'header',
    );
  });

  test('with an unknown or a repeated column is refused, every problem named at once', () => {
    refusal(
      () => readLinkFileLayoutOrThrow(['destination', 'url', 'alias', 'Alias', 'expiry']),
      'invalid-request',
      /unknown column "url"; column "alias" appears twice; unknown column "expiry"/,
    );
  });
});

describe('a link file row', () => {
  test('empty cells are absent fields: the service applies its defaults', () => {
    assert.deepEqual(
      readLinkRowOrThrow(FULL, row({ destination: 'https://example.com/' })),
      request({ destination: 'https://example.com/' }),
    );
  });

  test('every column is read', () => {
    const read = readLinkRowOrThrow(
      FULL,
      row({
        destination: 'https://example.com/a',
        alias: 'launch',
        expires_at: '2030-01-31T12:00:00Z',
        status_code: '308',
        title: 'Launch, "v2"',
        tags: 'docs|launch',
        state: 'disabled',
      }),
    );
    const expected = request(
      {
        destination: 'https://example.com/a',
        alias: 'launch',
        expiresAt: '2030-01-31T12:00:00Z',
        statusCode: 308,
        title: 'Launch, "v2"',
        tags: ['docs', 'launch'],
      },
      true,
    );
    assert.deepEqual(read, expected);
  });

  test('a file with only some columns leaves the others absent', () => {
    const layout: LinkFileLayout = readLinkFileLayoutOrThrow(['alias', 'destination']);
    assert.deepEqual(
      readLinkRowOrThrow(layout, ['x-1', 'https://example.com/']),
      request({ destination: 'https://example.com/', alias: 'x-1' }),
    );
  });

  test('"active" is the same as an empty state', () => {
    assert.equal(readLinkRowOrThrow(FULL, row({ state: 'active' })).disabled, false);
  });

  test('an empty tag between separators is kept, for the tag rule to refuse', () => {
    assert.deepEqual(readLinkRowOrThrow(FULL, row({ tags: 'a||b' })).input.tags, ['a', '', 'b']);
  });

  test('preview must be JSON and crawlable true or false, each refused at its column', () => {
    refusal(
      () => readLinkRowOrThrow(FULL, row({ preview: '{' })),
      'invalid-request',
      /preview must be a JSON object/,
      'preview',
    );
    refusal(
      () => readLinkRowOrThrow(FULL, row({ crawlable: 'yes' })),
      'invalid-request',
      /crawlable must be true, false or empty/,
      'crawlable',
    );
    assert.equal(readLinkRowOrThrow(FULL, row({ crawlable: 'false' })).input.crawlable, false);
  });

  test('the domain column names the short domain; empty is the default domain (issue 22)', () => {
    assert.equal(
      readLinkRowOrThrow(FULL, row({ domain: 'go.acme.test' })).input.domain,
      'go.acme.test',
    );
    assert.equal('domain' in readLinkRowOrThrow(FULL, row({})).input, false);
  });

  test('fewer or more cells than the header names are refused', () => {
    const detail = /The row has 15 cells where the header names 16 columns\./;
    refusal(() => readLinkRowOrThrow(FULL, row({}).slice(1)), 'invalid-request', detail, 'row');
    refusal(
      () => readLinkRowOrThrow(FULL, [...row({}), 'extra']),
      'invalid-request',
      /has 17 cells/,
    );
  });

  test('a status that is not a whole number is refused as the service refuses one', () => {
    for (const status of ['abc', '302.0', ' 302', '-301', '3e2']) {
      refusal(
        () => readLinkRowOrThrow(FULL, row({ status_code: status })),
        'invalid-status-code',
        /status_code must be one of 301, 302, 307, 308\./,
        'status_code',
      );
    }
  });

  test('a whole number that is no redirect status is refused', () => {
    refusal(
      () => readLinkRowOrThrow(FULL, row({ status_code: '200' })),
      'invalid-status-code',
      /one of 301, 302, 307, 308/,
    );
  });

  test('a state other than active or disabled is refused', () => {
    for (const state of ['deleted', 'expired', 'Disabled', 'off']) {
      refusal(
        () => readLinkRowOrThrow(FULL, row({ state })),
        'invalid-request',
        /state must be "active", "disabled" or empty/,
        'state',
      );
    }
  });
});

describe('a link as a row of an export', () => {
  const link: Link = {
    id: '01JGZ8Q3V4X5Y6Z7A8B9C0D1E2',
    code: 'aB3xY9z',
    owner: 'alice',
    destination: 'https://example.com/?q=1,2',
    statusCode: 307,
    state: 'disabled',
    custom: false,
    title: 'Say "hi"',
    tags: ['docs', 'launch'],
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    expiresAt: NOW + 86_400_000,
    deletedAt: null,
    version: 2,
    smart: null,
    domain: '',
    preview: null,
    crawlable: false,
  };

  test('carries the preview as the JSON object and crawlable as true (issue 22)', () => {
    const shared = {
      ...link,
      preview: { title: '=Spring', description: null, image: 'https://example.com/c.png' },
      crawlable: true,
    };
    const cells = toLinkFileRecord(shared, NOW);
    // A JSON object's cell starts with "{": a formula-like title inside it is safe as it is.
    assert.equal(cells[14], JSON.stringify(shared.preview));
    assert.equal(cells[15], 'true');
    const back = readLinkRowOrThrow(FULL, [...cells]).input;
    assert.deepEqual(back.preview, shared.preview);
    assert.equal(back.crawlable, true);
  });

  test("ends with the domain's host (issue 22)", () => {
    assert.equal(toLinkFileRecord({ ...link, domain: 'go.acme.test' }, NOW)[13], 'go.acme.test');
  });

  test('holds the code as alias, an RFC 3339 expiry, the tags joined, the state', () => {
    assert.deepEqual(toLinkFileRecord(link, NOW), [
      'https://example.com/?q=1,2',
      'aB3xY9z',
      '2026-01-02T00:00:00.000Z',
      '307',
      'Say "hi"',
      'docs|launch',
      'disabled',
      // A plain link's smart cells: empty, so its row is what it was before issue 21.
      '',
      '',
      '',
      '',
      '',
      '',
      // The default domain: no host, so the file imports onto any service's default.
      '',
      // No preview, not crawlable.
      '',
      '',
    ]);
  });

  test('reads back as a request for the same link', () => {
    assert.deepEqual(
      readLinkRowOrThrow(FULL, [...toLinkFileRecord(link, NOW)]),
      request(
        {
          destination: link.destination,
          alias: link.code,
          expiresAt: '2026-01-02T00:00:00.000Z',
          statusCode: 307,
          title: 'Say "hi"',
          tags: ['docs', 'launch'],
        },
        true,
      ),
    );
  });

  test('an expiry passed shows as state expired; no expiry, no tags, no title as empty', () => {
    const expired = { ...link, state: 'active' as const, expiresAt: NOW - 1 };
    assert.equal(toLinkFileRecord(expired, NOW)[6], 'expired');
    const bare = { ...link, expiresAt: null, tags: [], title: null };
    assert.deepEqual(toLinkFileRecord(bare, NOW).slice(2, 7), ['', '307', '', '', 'disabled']);
  });
});

describe('a smart link in a link file (ADR 0113)', () => {
  const HASH = `scrypt$8192$8$1$${'s'.repeat(22)}$${'h'.repeat(43)}`;
  const smart: SmartOptions = {
    rules: [
      {
        destination: 'https://m.example/',
        statusCode: 301,
        when: {
          device: ['mobile'],
          os: ['ios'],
          browser: ['safari'],
          language: ['de'],
          country: ['DE'],
          query: { ref: 'news', beta: true },
          ip: ['192.0.2.0/24'],
          after: Date.UTC(2030, 0, 1),
          before: Date.UTC(2031, 0, 1),
        },
      },
      { destination: 'https://any.example/', statusCode: null, when: { country: ['FR'] } },
    ],
    variants: [
      { destination: 'https://a.example/', weight: 1 },
      { destination: 'https://b.example/', weight: 3 },
    ],
    passwordHash: HASH,
    maxClicks: 100,
    fallbackUrl: 'https://fallback.example/',
    forwardQuery: true,
  };
  const link: Link = {
    id: '01JGZ8Q3V4X5Y6Z7A8B9C0D1E3',
    code: 'smart',
    owner: 'alice',
    destination: 'https://example.com/',
    statusCode: 302,
    state: 'active',
    custom: true,
    title: null,
    tags: [],
    createdAt: NOW,
    updatedAt: NOW,
    expiresAt: null,
    deletedAt: null,
    version: 1,
    smart,
    domain: '',
    preview: null,
    crawlable: false,
  };
  const anyUrl: CheckUrl = (url) => ({ ok: true, url });

  test('its options are the API JSON of rules and variants, the hash, limit, fallback, true', () => {
    const cells = toLinkFileRecord(link, NOW).slice(7, 13);
    assert.deepEqual(JSON.parse(cells[0]!), smartOptionsJson(smart).rules);
    assert.deepEqual(JSON.parse(cells[1]!), smartOptionsJson(smart).variants);
    assert.deepEqual(cells.slice(2), [HASH, '100', 'https://fallback.example/', 'true']);
  });

  test("reads back through the API's parser as the same options, the hash as it was", () => {
    const read = readLinkRowOrThrow(FULL, [...toLinkFileRecord(link, NOW)]);
    assert.equal(read.input.passwordHash, HASH);
    assert.equal(read.input.smart?.password, undefined, 'never a password in clear');
    const input = parseSmartInput(read.input.smart ?? {}, anyUrl);
    assert.deepEqual({ ...smartOptionsAfter(null, input, null), passwordHash: HASH }, smart);
  });

  test('a cell that is not JSON is refused by its column; other kinds go on for the parser', () => {
    refusal(
      () => readLinkRowOrThrow(FULL, row({ rules: '[{"destination":' })),
      'invalid-request',
      /rules must be a JSON array/,
      'rules',
    );
    refusal(
      () => readLinkRowOrThrow(FULL, row({ variants: 'a|b' })),
      'invalid-request',
      /variants must be a JSON array/,
      'variants',
    );
    const read = readLinkRowOrThrow(FULL, row({ max_clicks: '1.5', forward_query: 'yes' }));
    assert.deepEqual(read.input.smart, { max_clicks: '1.5', forward_query: 'yes' });
    assert.throws(
      () => parseSmartInput(read.input.smart ?? {}, anyUrl),
      (error: unknown) =>
        error instanceof HopError &&
        error.fields.map((f) => f.field).join() === 'max_clicks,forward_query',
    );
  });

  test('a password_hash not as an export writes it is refused, never kept', () => {
    for (const hash of [
      'hunter2',
      'scrypt$8191$8$1$ssssssssssssssssssssss$hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh',
      `scrypt$1048576$8$1$${'s'.repeat(22)}$${'h'.repeat(43)}`,
      `${HASH}\n`,
    ]) {
      refusal(
        () => readLinkRowOrThrow(FULL, row({ password_hash: hash })),
        'invalid-request',
        /password_hash must be a hash as hop links export writes it/,
        'password_hash',
      );
    }
  });

  test('an older file without the smart columns reads as before: no smart fields at all', () => {
    const older = readLinkFileLayoutOrThrow([...LINK_FILE_COLUMNS.slice(0, 7)]);
    const read = readLinkRowOrThrow(older, ['https://example.com/', 'x', '', '', '', '', '']);
    assert.deepEqual(read, request({ destination: 'https://example.com/', alias: 'x' }));
  });
});

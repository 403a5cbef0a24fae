import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../console/src/api.js';
import { pathPrefixes } from '../../console/src/field-paths.js';
import { localDateTime } from '../../console/src/format.js';
import { smartErrorFields, smartFieldsBody } from '../../console/src/smart-body.js';

/** A smart link as GET /v1/links/{id} shows it (issue 21). */
const LINK = {
  id: '01M92R3VYQYF5ED5VN2FWBQB4V',
  code: 'smart1',
  domain: '127.0.0.1',
  short_url: 'http://127.0.0.1/smart1',
  destination: 'https://example.com/?utm_source=news',
  status_code: 302,
  state: 'active',
  custom: true,
  owner: 'admin',
  title: null,
  tags: [],
  created_at: '2026-12-05T09:00:00.000Z',
  updated_at: '2026-12-05T09:00:00.000Z',
  expires_at: null,
  version: 1,
  clicks: 0,
  rules: [
    {
      destination: 'https://example.com/de',
      when: {
        country: ['DE'],
        query: { ref: 'mail', promo: true },
        after: '2026-01-01T00:00:30.000Z',
      },
      status_code: 307,
    },
  ],
  variants: [
    { destination: 'https://example.com/a', weight: 1 },
    { destination: 'https://example.com/b', weight: 3 },
  ],
  password_protected: true,
  max_clicks: 10,
  fallback_url: 'https://example.com/over',
  forward_query: true,
  utm: { source: 'news' },
} as const satisfies Link;

/** The edit form's fields as the console fills them in for LINK, with `changes` made. */
function editForm(changes: Record<string, string | null> = {}): FormData {
  const fields: Record<string, string | null> = {
    rule: '0',
    'rule-0-destination': 'https://example.com/de',
    'rule-0-status_code': '307',
    'rule-0-country': 'DE',
    'rule-0-query': 'ref=mail\npromo',
    'rule-0-after': localDateTime('2026-01-01T00:00:30.000Z'),
    'rule-0-after-was': '2026-01-01T00:00:30.000Z',
    'rule-0-before': '',
    'rule-0-before-was': '',
    'variant-0-destination': 'https://example.com/a',
    'variant-0-weight': '1',
    'variant-1-destination': 'https://example.com/b',
    'variant-1-weight': '3',
    password: '',
    max_clicks: '10',
    fallback_url: 'https://example.com/over',
    forward_query: 'on',
    utm_source: 'news',
    utm_medium: '',
    utm_campaign: '',
    utm_term: '',
    utm_content: '',
    ...changes,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
  form.append('variant', '0');
  form.append('variant', '1');
  return form;
}

describe('console smart fields: the JSON a form asks for (issue 21)', () => {
  test('an edit form left as it was asks for nothing, the password least of all', () => {
    assert.deepEqual(smartFieldsBody(editForm(), LINK), {});
  });

  test('a rule instant left as shown keeps its seconds; a changed one is sent as UTC', () => {
    const moved = smartFieldsBody(editForm({ 'rule-0-after': '2026-03-01T10:00' }), LINK);
    const rules = moved['rules'] as { when: { after: string } }[];
    assert.equal(rules[0]?.when.after, new Date('2026-03-01T10:00').toISOString());
    assert.deepEqual(Object.keys(moved), ['rules']);
  });

  test('a password is sent only when typed or removed, and never trimmed', () => {
    assert.deepEqual(smartFieldsBody(editForm({ password: ' new pass ' }), LINK), {
      password: ' new pass ',
    });
    assert.deepEqual(smartFieldsBody(editForm({ remove_password: 'on' }), LINK), {
      password: null,
    });
    const plain = { ...LINK, password_protected: false };
    assert.deepEqual(smartFieldsBody(editForm({ remove_password: 'on' }), plain), {});
  });

  test('cleared single fields are null, UTM changes per key, lists as a whole', () => {
    const body = smartFieldsBody(
      editForm({
        max_clicks: '',
        fallback_url: '',
        forward_query: null,
        utm_source: '',
        utm_medium: 'email',
        'variant-1-weight': '2',
      }),
      LINK,
    );
    assert.deepEqual(body, {
      variants: [
        { destination: 'https://example.com/a', weight: 1 },
        { destination: 'https://example.com/b', weight: 2 },
      ],
      max_clicks: null,
      fallback_url: null,
      forward_query: false,
      utm: { source: null, medium: 'email' },
    });
  });

  test('a count that is not a whole number is sent as typed, for the API to refuse', () => {
    assert.deepEqual(
      smartFieldsBody(editForm({ max_clicks: 'ten', 'variant-0-weight': '1.5' }), LINK),
      {
        variants: [
          { destination: 'https://example.com/a', weight: '1.5' },
          { destination: 'https://example.com/b', weight: 3 },
        ],
        max_clicks: 'ten',
      },
    );
  });

  test('a new link asks only for what was given', () => {
    const empty = new FormData();
    for (const name of ['password', 'max_clicks', 'fallback_url', 'utm_source']) {
      empty.append(name, '');
    }
    assert.deepEqual(smartFieldsBody(empty), {});
    const form = new FormData();
    form.append('rule', '4');
    form.append('rule-4-destination', 'https://example.com/phones');
    form.append('rule-4-device', 'mobile');
    form.append('rule-4-device', 'tablet');
    form.append('rule-4-language', ' de, , fr ');
    form.append('rule-4-ip', '');
    form.append('rule-4-query', '\n a = 1 \nflag\n');
    form.append('rule-4-status_code', '');
    form.append('password', 'secret');
    form.append('max_clicks', '5');
    form.append('utm_campaign', 'spring');
    assert.deepEqual(smartFieldsBody(form), {
      rules: [
        {
          destination: 'https://example.com/phones',
          when: {
            device: ['mobile', 'tablet'],
            language: ['de', 'fr'],
            query: { a: '1', flag: true },
          },
        },
      ],
      password: 'secret',
      max_clicks: 5,
      utm: { campaign: 'spring' },
    });
  });

  test("the error fields follow the form's rows", () => {
    const fields = smartErrorFields(editForm());
    for (const field of [
      'rules',
      'rules[0].when',
      'rules[0].when.country',
      'rules[0].destination',
      'variants[1].weight',
      'utm.medium',
      'password',
    ]) {
      assert.ok(fields.includes(field), field);
    }
    assert.ok(!fields.includes('rules[1].destination'));
    assert.ok(!fields.includes('variants[2].weight'));
  });
});

describe('console field paths', () => {
  test('a bracket path lies under each of its shorter paths, longest first', () => {
    assert.deepEqual(pathPrefixes('rules[2].when.country[0]'), [
      'rules[2].when.country[0]',
      'rules[2].when.country',
      'rules[2].when',
      'rules[2]',
      'rules',
    ]);
    assert.deepEqual(pathPrefixes('rules[0].when.query["a.b[c]"]'), [
      'rules[0].when.query["a.b[c]"]',
      'rules[0].when.query',
      'rules[0].when',
      'rules[0]',
      'rules',
    ]);
    assert.deepEqual(pathPrefixes('tags.2'), ['tags.2', 'tags']);
    assert.deepEqual(pathPrefixes('destination'), ['destination']);
  });
});

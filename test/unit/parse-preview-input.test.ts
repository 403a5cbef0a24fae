import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HopError } from '../../src/domain/errors.js';
import { parsePreviewInput } from '../../src/domain/parse-preview-input.js';
import { checkUrlByPolicy } from '../../src/domain/smart/parse-smart-input.js';

const checkUrl = checkUrlByPolicy({
  maxLength: 2048,
  ownHosts: ['hop.test'],
  blockedDomains: new Set(['blocked.example']),
});

function fieldsOf(value: unknown): readonly string[] {
  try {
    parsePreviewInput(value, checkUrl);
  } catch (error) {
    assert.ok(error instanceof HopError);
    assert.equal(error.kind, 'invalid-request');
    return (error.fields ?? []).map((problem) => problem.field);
  }
  assert.fail('no problem');
}

describe('parsePreviewInput (issue 22)', () => {
  test('trims each field; empty and absent are null; a preview of nothing is none', () => {
    assert.deepEqual(
      parsePreviewInput(
        {
          title: ' Spring ',
          description: 'Line one\nline two',
          image: 'https://img.example/a.png',
        },
        checkUrl,
      ),
      { title: 'Spring', description: 'Line one\nline two', image: 'https://img.example/a.png' },
    );
    assert.deepEqual(parsePreviewInput({ title: 'Only' }, checkUrl), {
      title: 'Only',
      description: null,
      image: null,
    });
    assert.equal(parsePreviewInput({ title: '  ', image: null }, checkUrl), null);
    assert.equal(parsePreviewInput({}, checkUrl), null);
    assert.equal(parsePreviewInput(null, checkUrl), null);
  });

  test('the image is normalised as a destination is', () => {
    assert.equal(
      parsePreviewInput({ image: 'HTTPS://IMG.example/a b'.replace(' ', '%20') }, checkUrl)?.image,
      'https://img.example/a%20b',
    );
  });

  test('names every bad field at once', () => {
    assert.deepEqual(
      fieldsOf({
        title: 'x'.repeat(201),
        description: 'x'.repeat(1001),
        image: 'ftp://a.example/',
      }),
      ['preview.title', 'preview.description', 'preview.image'],
    );
    assert.deepEqual(fieldsOf({ title: 7 }), ['preview.title']);
    assert.deepEqual(fieldsOf({ title: 'a\u0000b' }), ['preview.title']);
    assert.deepEqual(fieldsOf({ description: 'bidi \u202e' }), ['preview.description']);
    assert.deepEqual(fieldsOf({ colour: 'red' }), ['preview.colour']);
    assert.deepEqual(fieldsOf('a card'), ['preview']);
    assert.deepEqual(fieldsOf([]), ['preview']);
  });

  test("the image passes the destination policy: http(s), public, not hop's own, not blocked", () => {
    for (const image of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/relative.png',
      'http://127.0.0.1/a.png',
      'http://localhost/a.png',
      'https://hop.test/a.png',
      'https://cdn.blocked.example/a.png',
      `https://img.example/${'a'.repeat(2048)}`,
    ]) {
      assert.deepEqual(fieldsOf({ image }), ['preview.image'], image);
    }
  });
});

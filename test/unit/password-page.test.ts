import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  PASSWORD_PAGE_CSP,
  PASSWORD_PAGES,
  passwordPageFor,
} from '../../src/http/pages/password-page.js';
import { PAGE_LANGUAGES } from '../../src/http/pages/page-texts.js';

/** Issue 21: the password form is a small page with a strict CSP and no script. */
describe('the password pages', () => {
  const every = Object.entries(PASSWORD_PAGES).flatMap(([kind, pages]) =>
    PAGE_LANGUAGES.map((language) => ({ where: `${kind}/${language}`, page: pages[language] })),
  );

  test('carry no script, and a CSP that allows only their own inline style', () => {
    assert.match(PASSWORD_PAGE_CSP, /^default-src 'none'; /);
    assert.doesNotMatch(PASSWORD_PAGE_CSP, /script-src|unsafe/);
    for (const { where, page } of every) {
      const html = page.body.toString('utf8');
      assert.doesNotMatch(html, /<script|\son\w+=|javascript:/i, where);
      const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(style).digest('base64');
      assert.equal(
        page.headers['content-security-policy'],
        PASSWORD_PAGE_CSP,
        `${where}: the page's CSP`,
      );
      assert.ok(PASSWORD_PAGE_CSP.includes(`style-src 'sha256-${hash}'`), where);
    }
  });

  test('are never stored and carry the console security headers', () => {
    for (const { where, page } of every) {
      assert.equal(page.headers['cache-control'], 'no-store', where);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8', where);
      assert.equal(page.headers['content-length'], String(page.body.length), where);
      assert.equal(page.headers['x-frame-options'], 'DENY', where);
      assert.equal(page.headers['x-content-type-options'], 'nosniff', where);
      assert.equal(page.headers['referrer-policy'], 'no-referrer', where);
      assert.match(page.headers['content-security-policy'] ?? '', /frame-ancestors 'none'/, where);
      assert.match(page.headers['content-security-policy'] ?? '', /form-action 'self'/, where);
    }
  });

  test('the form posts `password` to its own URL, labelled, for password managers', () => {
    const html = PASSWORD_PAGES.form.en.body.toString('utf8');
    assert.match(html, /<form method="post">/);
    assert.match(html, /<label for="password">Password<\/label>/);
    assert.match(
      html,
      /<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    assert.match(html, /<button type="submit">/);
    assert.doesNotMatch(html, /not right/);
  });

  test('the wrong and too-many pages say so; only the latter has no form', () => {
    const wrong = PASSWORD_PAGES.wrong.en.body.toString('utf8');
    assert.match(wrong, /That password is not right\./);
    assert.match(wrong, /<form /);
    assert.match(PASSWORD_PAGES.missing.en.body.toString('utf8'), /Enter the password\./);
    const tooMany = PASSWORD_PAGES.tooMany.en.body.toString('utf8');
    assert.match(tooMany, /Too many tries; wait a few minutes\./);
    assert.doesNotMatch(tooMany, /<form/);
  });

  test('the language comes from Accept-Language, English otherwise', () => {
    assert.equal(
      passwordPageFor('form', ['Accept-Language', 'de-AT, en;q=0.5']),
      PASSWORD_PAGES.form.de,
    );
    assert.equal(passwordPageFor('wrong', ['accept-language', 'ja']), PASSWORD_PAGES.wrong.en);
    assert.equal(passwordPageFor('form', []), PASSWORD_PAGES.form.en);
  });
});

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { whenChromium } from '../support/browser.js';
import {
  ADMIN_KEY,
  assertFieldErrorOnce,
  breakdownRows,
  callApi,
  createLinkVia,
  DESKTOP,
  IPHONE,
  newPage as newHarnessPage,
  refreshUntilTotal,
  signIn as signInWith,
  useConsoleHarness,
  visit as visitWith,
} from '../support/console-harness.js';

whenChromium('admin console in Chromium', () => {
  describe('admin console in headless Chromium against a real hop', () => {
    const h = useConsoleHarness();
    const createLink = (body: Record<string, unknown>) => createLinkVia(h, body);
    const visit = (code: string, headers: Record<string, string>) => visitWith(h, code, headers);
    /** A look at the redirect that is not a click (SPEC §3: HEAD is never counted). */
    const probe = async (code: string) =>
      (await fetch(`${h.hop.url}/${code}`, { method: 'HEAD', redirect: 'manual' })).status;
    const newPage = (context?: BrowserContext): Promise<Page> => newHarnessPage(h, context);
    const signIn = (page: Page, key: string) => signInWith(h, page, key);

    test('a wrong key is refused and no session cookie is set', async () => {
      const context = await h.browser.newContext();
      const page = await newPage(context);
      await signIn(page, 'hop_not_a_real_key_at_all');
      await page.getByRole('alert').getByText('unknown or revoked').waitFor();
      assert.deepEqual(await context.cookies(), []);
      assert.equal(await page.getByRole('heading', { name: 'Dashboard' }).count(), 0);

      await context.close();
    });

    test('a state change without the CSRF token is refused, with it accepted', async () => {
      const context = await h.browser.newContext();
      const page = await newPage(context);
      await signIn(page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      const [cookie] = await context.cookies();
      assert.equal(cookie?.name, 'hop_console');
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      // Page scripts cannot read the session cookie.
      assert.equal(await page.evaluate<string>('document.cookie'), '');

      const target = await createLink({ destination: 'https://example.com/csrf-target' });
      const attempt = (token: string | null) =>
        page.evaluate(
          async ({ id, token }) => {
            const headers: Record<string, string> = {};
            if (token !== null) headers['x-csrf-token'] = token;
            const response = await fetch(`/v1/links/${id}/disable`, { method: 'POST', headers });
            return {
              status: response.status,
              type: response.headers.get('content-type'),
              body: (await response.json()) as { detail?: string; state?: string },
            };
          },
          { id: target.id, token },
        );
      const without = await attempt(null);
      assert.equal(without.status, 403);
      assert.match(without.type ?? '', /^application\/problem\+json/);
      assert.match(without.body.detail ?? '', /X-CSRF-Token/);
      const forged = await attempt('A'.repeat(43));
      assert.equal(forged.status, 403);
      assert.equal(await probe(target.code), 302, 'the refused requests changed nothing');

      const token = await page.evaluate(async () => {
        const response = await fetch('/admin/session');
        return ((await response.json()) as { csrf_token: string }).csrf_token;
      });
      const accepted = await attempt(token);
      assert.equal(accepted.status, 200);
      assert.equal(accepted.body.state, 'disabled');
      assert.equal(await probe(target.code), 404);
      await context.close();
    });

    test('sign in, search, open a link, see its clicks, disable it, sign out', async () => {
      const marker = `console-${Date.now()}`;
      const link = await createLink({
        destination: `https://example.com/${marker}/landing?utm=1`,
        title: 'Spring launch',
        tags: ['launch'],
      });
      for (let i = 0; i < 5; i++) {
        await createLink({ destination: `https://example.org/other/${i}` });
      }

      const context = await h.browser.newContext();
      const page = await newPage(context);
      // Keyboard only: type the key and press Enter.
      await page.goto(`${h.hop.url}/admin`);
      await page.getByLabel('API key').focus();
      await page.keyboard.type(ADMIN_KEY);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      // Tab to the Links navigation and follow it with Enter.
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate<unknown>('document.activeElement?.textContent')) === 'Links')
          break;
      }
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Links' }).waitFor();

      await page.getByRole('searchbox', { name: 'Search' }).fill(marker);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/#\/links\?q=/);
      const rows = page.locator('table.links tbody tr');
      await rows.filter({ hasText: marker }).waitFor();
      assert.equal(await rows.count(), 1, 'the search finds exactly the one link');
      await page.getByRole('link', { name: link.code }).click();
      await page.getByRole('heading', { name: link.code }).waitFor();
      assert.equal(await page.getByTestId('link-state').textContent(), 'active');
      assert.equal(await page.getByTestId('clicks-total').textContent(), '0');

      // Clicks from visitors: two phones from Germany, three desktops from France via a referrer.
      for (let i = 0; i < 2; i++) {
        assert.equal(await visit(link.code, { 'user-agent': IPHONE, 'x-country': 'DE' }), 302);
      }
      for (let i = 0; i < 3; i++) {
        const headers = {
          'user-agent': DESKTOP,
          'x-country': 'FR',
          referer: 'https://news.example/item',
        };
        assert.equal(await visit(link.code, headers), 302);
      }
      // The chart follows once the clicks are folded: refresh until the total says 5.
      await refreshUntilTotal(page, '5');
      const bars = await page
        .locator('svg rect.bar')
        .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-clicks'))));
      assert.equal(
        bars.reduce((a, b) => a + b, 0),
        5,
        'the hourly bars add up to the clicks',
      );
      assert.equal(bars.at(-1), 5, "the current hour's bar holds them");
      const breakdown = (caption: string) => breakdownRows(page, caption);
      assert.deepEqual(await breakdown('By country'), ['FR\t3', 'DE\t2']);
      assert.deepEqual(await breakdown('By device'), ['desktop\t3', 'mobile\t2']);
      assert.deepEqual(await breakdown('By referrer'), ['news.example\t3', '(none)\t2']);
      await page.getByRole('button', { name: '30 d' }).click();
      await page.locator('figcaption', { hasText: 'clicks by day' }).waitFor();
      assert.equal(await page.getByTestId('clicks-total').textContent(), '5');
      const days = await page
        .locator('svg rect.bar')
        .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-clicks'))));
      assert.ok(days.length >= 30, 'a month of days');
      assert.equal(days.at(-1), 5, "today's bar holds them");
      await page.getByRole('img', { name: `QR code of ${link.short_url}` }).waitFor();
      // The QR image loads with the session cookie, like any same-origin image (a broken
      // image never passes this: it is complete with no width). The page's CSP allows no
      // eval, so this polls from here rather than with waitForFunction.
      const qrImage = page.locator('section.qr img');
      const qrShown = () =>
        qrImage.evaluate(
          (img: { complete: boolean; naturalWidth: number }) =>
            img.complete && img.naturalWidth > 0,
        );
      for (let i = 0; i < 100 && !(await qrShown()); i++) await page.waitForTimeout(100);
      assert.ok(await qrShown(), 'the QR code shows');
      await page.getByRole('button', { name: '7 d' }).click();
      // The hourly chart and its breakdowns load again; the screenshot waits for them.
      await page.locator('figcaption', { hasText: 'clicks by hour' }).waitFor();
      assert.deepEqual(await breakdown('By country'), ['FR\t3', 'DE\t2']);
      await page.screenshot({ path: join(h.screenshots, 'link-page.png'), fullPage: true });

      // The dashboard counts them too; the live redirect rate sees the traffic of the last
      // seconds (HEADs here, which are redirects but not clicks).
      await Promise.all(Array.from({ length: 200 }, () => probe(link.code)));
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.locator('[data-testid="clicks-today"]', { hasText: /^5$/ }).waitFor();
      assert.notEqual(await page.getByTestId('redirect-p99').textContent(), '—');
      assert.ok(Number(await page.getByTestId('redirect-rate').textContent()) > 0);
      // The busiest links are ranked where clicks are folded, every 15 s: the row
      // comes with the first ranking after the fold that counted the clicks.
      await page
        .getByRole('table', { name: 'Busiest links, last 7 days' })
        .locator('tbody tr', { hasText: link.code })
        .filter({ hasText: '5' })
        .waitFor({ timeout: 60_000 });
      await page.screenshot({ path: join(h.screenshots, 'dashboard.png'), fullPage: true });
      // Links by state are the store's own counts (ADR 0100): the cards say what /v1/stats
      // says for one count. A recount may land between the page's read and ours: look again.
      const cards = ['total', 'active', 'disabled', 'expired', 'deleted'] as const;
      let agreed = false;
      for (let attempt = 0; attempt < 20 && !agreed; attempt++) {
        const shown = await Promise.all(
          cards.map(async (state) => await page.getByTestId(`links-${state}`).textContent()),
        );
        const stats = (await callApi(h, 'GET', '/v1/stats')).json as {
          links: Record<(typeof cards)[number], number>;
        };
        agreed = cards.every((state, i) => shown[i] === String(stats.links[state]));
        if (!agreed) await page.reload();
      }
      assert.ok(agreed, 'the dashboard shows the links by state that /v1/stats counts');
      assert.notEqual(await page.getByTestId('links-total').textContent(), '0');

      // Disable it from its page: the redirect turns 404.
      await page.goto(`${h.hop.url}/admin#/links/${link.id}`);
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByTestId('link-state').getByText('disabled').waitFor();
      assert.equal(await probe(link.code), 404);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByTestId('link-state').getByText('active').waitFor();
      assert.equal(await probe(link.code), 302);

      // Sign out: back to the sign-in form, the cookie gone, the API closed to this browser
      // and to anyone who kept a copy of the cookie.
      const [kept] = await context.cookies();
      assert.equal(kept?.name, 'hop_console');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      assert.deepEqual(await context.cookies(), []);
      const status = await page.evaluate(async () => (await fetch('/v1/links')).status);
      assert.equal(status, 401);
      const replayed = await fetch(`${h.hop.url}/v1/links`, {
        headers: { cookie: `hop_console=${kept.value}` },
      });
      assert.equal(replayed.status, 401, 'a copy of the signed-out cookie opens nothing');
      await context.close();
    });

    test('create a link with the form, edit its destination, delete it', async () => {
      const context = await h.browser.newContext();
      const page = await newPage(context);
      await signIn(page, ADMIN_KEY);
      await page.getByRole('link', { name: 'New link' }).click();
      await page.getByRole('heading', { name: 'New link' }).waitFor();
      await page.getByLabel('Destination').fill('https://example.com/from-the-form');
      await page.getByLabel('Alias (optional)').fill('spring-sale');
      await page.getByLabel('Redirect status').selectOption('301');
      await page.getByLabel('Expires (optional)').fill('2031-05-01T12:00');
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByRole('heading', { name: 'spring-sale' }).waitFor();
      const redirect = await fetch(`${h.hop.url}/spring-sale`, { redirect: 'manual' });
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.get('location'), 'https://example.com/from-the-form');

      // A taken alias is refused with the API's explanation, once, under the alias field.
      await page.getByRole('link', { name: 'New link' }).click();
      // The link page has a Destination field too: fill the form only once it is shown.
      await page.getByRole('heading', { name: 'New link' }).waitFor();
      await page.getByLabel('Destination').fill('https://example.com/again');
      await page.getByLabel('Alias (optional)').fill('spring-sale');
      await page.getByRole('button', { name: 'Create link' }).click();
      await assertFieldErrorOnce(page, 'new-alias', /taken/i);

      await page.goto(`${h.hop.url}/admin#/links?q=spring-sale`);
      await page.getByRole('link', { name: 'spring-sale' }).click();
      await page.getByLabel('Destination').fill('https://example.com/edited');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByTestId('destination').getByText('https://example.com/edited').waitFor();
      const edited = await fetch(`${h.hop.url}/spring-sale`, { redirect: 'manual' });
      assert.equal(edited.headers.get('location'), 'https://example.com/edited');

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await page.getByRole('heading', { name: 'Links' }).waitFor();
      assert.equal((await fetch(`${h.hop.url}/spring-sale`, { redirect: 'manual' })).status, 404);
      // Listed among deleted links, with no page to go to.
      await page.goto(`${h.hop.url}/admin#/links?q=spring-sale&state=deleted`);
      const row = page.locator('table.links tbody tr', { hasText: 'spring-sale' });
      await row.getByText('deleted').waitFor();
      assert.equal(await row.getByRole('link').count(), 0);
      await context.close();
    });

    test('pages, Back and Forward, the skip link, a broken fragment, the PNG download', async () => {
      const marker = `paged-${Date.now()}`;
      for (let i = 0; i < 25; i++) {
        await createLink({ destination: `https://example.net/${marker}/${i}` });
      }
      const context = await h.browser.newContext();
      const page = await newPage(context);
      await signIn(page, ADMIN_KEY);
      // Wait for the sign-in to land: it ends on the dashboard, and a hash set
      // before then would be replaced by it.
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.goto(`${h.hop.url}/admin#/links?q=${marker}`);
      const rows = page.locator('table.links tbody tr');
      await rows.nth(19).waitFor();
      assert.equal(await rows.count(), 20);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Page 2').waitFor();
      await rows.nth(4).waitFor();
      await rows.nth(5).waitFor({ state: 'detached' });
      const secondPage = await rows.allInnerTexts();
      // Open a link of page 2, then come Back: still page 2, the same rows.
      await rows.first().getByRole('link').click();
      await page.getByRole('heading', { name: 'Details' }).waitFor();
      await page.goBack();
      await page.getByText('Page 2').waitFor();
      await rows.nth(4).waitFor();
      await rows.nth(5).waitFor({ state: 'detached' });
      assert.deepEqual(await rows.allInnerTexts(), secondPage);
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByText('Page 1').waitFor();
      await rows.nth(19).waitFor();

      // The skip link moves focus to the content and leaves the page where it is.
      const before = page.url();
      await page.getByRole('link', { name: 'Skip to content' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(page.url(), before);
      assert.equal(await page.evaluate<unknown>('document.activeElement?.id'), 'main');

      // A fragment with broken percent-encoding is a page that says so, not a blank one.
      await page.goto(`${h.hop.url}/admin#/links/%E0%A4%A`);
      await page.getByText('There is no such page').waitFor();

      // Download PNG: a real PNG of the short URL's QR code, with the session cookie.
      await page.goto(`${h.hop.url}/admin#/links?q=${marker}`);
      await rows.first().getByRole('link').click();
      const href = await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
      assert.ok(href !== null);
      const png = await page.evaluate(async (url) => {
        const response = await fetch(url);
        return { status: response.status, type: response.headers.get('content-type') };
      }, href);
      assert.deepEqual(png, { status: 200, type: 'image/png' });

      // Delete asks first, with focus on the confirmation; "Keep it" returns focus.
      // (Preact renders a state change after the click returns: wait for the focus to move.)
      const focused = page.locator('button:focus');
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await focused.filter({ hasText: 'Delete for good' }).waitFor();
      await page.getByRole('button', { name: 'Keep it' }).click();
      await focused.filter({ hasText: /^Delete$/ }).waitFor();
      await context.close();
    });

    test('usable at phone width: nothing wider than the screen', async () => {
      const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await newPage(context);
      await signIn(page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      const overflow = () =>
        page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok((await overflow()) <= 0, 'the dashboard fits');
      await page.getByRole('link', { name: 'Links' }).click();
      await page.locator('table.links tbody tr').first().waitFor();
      assert.ok((await overflow()) <= 0, 'the links page fits (its table scrolls in its box)');
      await page.locator('table.links tbody tr a').first().click();
      await page.getByRole('heading', { name: 'Details' }).waitFor();
      await page.locator('figcaption', { hasText: 'clicks by hour' }).waitFor();
      assert.ok((await overflow()) <= 0, 'a link page fits, its chart and breakdowns loaded');
      await page.screenshot({ path: join(h.screenshots, 'link-page-phone.png'), fullPage: true });
      await context.close();
    });
  });
});

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { whenChromium } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import {
  ADMIN_KEY,
  assertFieldErrorOnce,
  breakdownRows,
  callApi,
  createLinkVia,
  DESKTOP,
  newPage,
  ownerKeyVia,
  refreshUntilTotal,
  signIn,
  useConsoleHarness,
  visit,
} from '../support/console-harness.js';

const PHONE = { width: 390, height: 844 };

/** The page's own function, named for the scripts these tests run in the page. */
declare const getComputedStyle: (element: unknown) => Record<string, string>;

/**
 * Issue 20, "A team in the console": owners' sessions, the full edit form, the links
 * table (tag filter, sort, row actions, phone width), the chart's range and layout.
 */
whenChromium('the console for a team, in Chromium', () => {
  describe('the console for a team, in headless Chromium against a real hop', () => {
    const h = useConsoleHarness();
    const rowCodes = (page: Page) =>
      page
        .locator('table.links tbody tr[data-code]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));
    /** Waits for the links table to show exactly these codes, in this order. */
    const waitForRows = async (page: Page, codes: readonly string[]) => {
      const rows = page.locator('table.links tbody tr[data-code]');
      await rows.nth(codes.length - 1).waitFor();
      for (let i = 0; i < 100; i++) {
        if (JSON.stringify(await rowCodes(page)) === JSON.stringify(codes)) return;
        await page.waitForTimeout(50);
      }
      assert.deepEqual(await rowCodes(page), codes);
    };

    test("an owner signs in and sees only the owner's links; another's link page is 404; an admin sees both", async () => {
      const aliceKey = await ownerKeyVia(h, 'alice-team');
      const bobKey = await ownerKeyVia(h, 'bob-team');
      const marker = `owners-${Date.now()}`;
      const alice = await createLinkVia(
        h,
        { destination: `https://example.com/${marker}/alice`, title: 'Alice launch' },
        aliceKey,
      );
      const bob = await createLinkVia(
        h,
        { destination: `https://example.com/${marker}/bob` },
        bobKey,
      );

      const context = await h.browser.newContext();
      const page = await newPage(h, context);
      await page.goto(`${h.hop.url}/admin`);
      await page.getByLabel('API key').fill(aliceKey);
      await page.screenshot({ path: join(h.screenshots, 'sign-in.png') });
      await page.getByRole('button', { name: 'Sign in' }).click();
      // An owner's console opens on its dashboard: the clicks of its own links (ADR 0126),
      // none of the service's figures, which stay the admins' (ADR 0096).
      await page.getByRole('heading', { name: 'Clicks across your links' }).waitFor();
      assert.match(
        (await page.getByTestId('signed-in-as').textContent()) ?? '',
        /Signed in as alice-team \(owner\)/,
      );
      assert.equal(await page.getByTestId('clicks-today').count(), 0);
      await page.getByRole('link', { name: 'Links', exact: true }).click();
      await page.getByRole('heading', { name: 'Links' }).waitFor();
      assert.equal(await page.getByLabel('Owner').count(), 0, 'no owner filter for an owner');
      assert.equal(await page.getByRole('columnheader', { name: 'Owner' }).count(), 0);
      await waitForRows(page, [alice.code]);
      await page.screenshot({ path: join(h.screenshots, 'owner-links.png'), fullPage: true });
      // Even a search for Bob's link finds nothing.
      await page.goto(`${h.hop.url}/admin#/links?q=${marker}`);
      await waitForRows(page, [alice.code]);
      // Bob's link page answers as the API does for Alice: 404, not found.
      await page.goto(`${h.hop.url}/admin#/links/${bob.id}`);
      await page
        .getByRole('alert')
        .getByText(/no link|not found|does not exist/i)
        .waitFor();
      const status = await page.evaluate(
        async (id) => (await fetch(`/v1/links/${id}`)).status,
        bob.id,
      );
      assert.equal(status, 404);
      const dashboard = await page.evaluate(
        async () => (await fetch('/admin/api/dashboard')).status,
      );
      assert.equal(dashboard, 403);
      // Alice's own link opens, and she can change it.
      await page.goto(`${h.hop.url}/admin#/links/${alice.id}`);
      await page.getByRole('heading', { name: alice.code }).waitFor();
      await context.close();

      const admin = await newPage(h);
      await signIn(h, admin, ADMIN_KEY);
      await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();
      assert.match(
        (await admin.getByTestId('signed-in-as').textContent()) ?? '',
        /Signed in as admin \(admin\)/,
      );
      await admin.goto(`${h.hop.url}/admin#/links?q=${marker}`);
      await waitForRows(admin, [bob.code, alice.code]);
      await admin.getByLabel('Owner').waitFor();
      await admin.context().close();
    });

    test("a link's page edits every field; a refusal shows once, under its field, in the API's words", async () => {
      const link = await createLinkVia(h, { destination: 'https://example.com/before-edit' });
      const page = await newPage(h);
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.goto(`${h.hop.url}/admin#/links/${link.id}`);
      await page.getByRole('heading', { name: 'Edit' }).waitFor();

      // Not a URL: the API's rule under the field, not the browser's bubble.
      await page.getByLabel('Destination').fill('not a url');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await assertFieldErrorOnce(page, 'edit-destination', /.+/);
      const apiRule = await callApi(h, 'PATCH', `/v1/links/${link.id}`, {
        destination: 'not a url',
      });
      const fields = (apiRule.json as { errors: { field: string; detail: string }[] }).errors;
      assert.equal(
        await page.locator('#edit-destination-error').textContent(),
        fields.find((field) => field.field === 'destination')?.detail,
        "the field says exactly the API's rule",
      );
      // The API's rule came back at all: the browser's own validation (type=url) did not
      // stop the form (noValidate).
      assert.equal(
        await page
          .locator('form.edit')
          .evaluate((form) => (form as unknown as { noValidate: boolean }).noValidate),
        true,
      );

      // Every field at once: destination, title, tags, status, expiry.
      await page.getByLabel('Destination').fill('https://example.com/after-edit');
      await page.getByLabel('Title (optional)').fill('Autumn sale');
      await page.getByLabel('Tags (optional, comma-separated)').fill('autumn, sale');
      await page.getByLabel('Redirect status').selectOption('308');
      await page.getByLabel('Expires (optional)').fill('2027-03-01T09:30');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByTestId('destination').getByText('https://example.com/after-edit').waitFor();
      await page
        .getByTestId('saved')
        .getByText(/^Saved version 2/)
        .waitFor();
      // The form starts again from the saved link: every field shows what was saved.
      assert.equal(await page.getByLabel('Redirect status').inputValue(), '308');
      assert.equal(
        await page.getByLabel('Tags (optional, comma-separated)').inputValue(),
        'autumn, sale',
      );
      const saved = (await callApi(h, 'GET', `/v1/links/${link.id}`)).json as Record<
        string,
        unknown
      >;
      assert.equal(saved['title'], 'Autumn sale');
      assert.deepEqual(saved['tags'], ['autumn', 'sale']);
      assert.equal(saved['status_code'], 308);
      assert.equal(saved['expires_at'], new Date('2027-03-01T09:30').toISOString());
      const redirect = await fetch(`${h.hop.url}/${link.code}`, { redirect: 'manual' });
      assert.equal(redirect.status, 308);
      await page.screenshot({ path: join(h.screenshots, 'link-edit.png'), fullPage: true });

      // A title over the API's limit: its rule under the title, once.
      await page.getByLabel('Title (optional)').fill('x'.repeat(201));
      await page.getByRole('button', { name: 'Save changes' }).click();
      await assertFieldErrorOnce(page, 'edit-title', /.+/);

      // "Never expires" sends expires_at: null. The API decides: the link becomes permanent,
      // or its one-sentence reason shows under the expiry field.
      await page.getByLabel('Title (optional)').fill('Autumn sale');
      await page.getByLabel('Never expires').check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      const direct = await callApi(h, 'PATCH', `/v1/links/${link.id}`, { expires_at: null });
      if (direct.status === 200) {
        await page.locator('.details dd', { hasText: /^never$/ }).waitFor();
      } else {
        const detail = (direct.json as { detail: string }).detail;
        await assertFieldErrorOnce(page, 'edit-expires_at', /.+/);
        const shown = (await page.locator('#edit-expires_at-error').textContent()) ?? '';
        assert.ok(detail.includes(shown) || shown.length > 0);
      }
      await page.context().close();
    });

    test('the links table: title, tags, clicks, expiry; tag filter; sort; copy, QR, disable', async () => {
      const marker = `table${Date.now()}`;
      const quiet = await createLinkVia(h, {
        destination: `https://example.com/${marker}/quiet/${'a-very-long-path-segment/'.repeat(8)}`,
        title: 'Quiet one',
        tags: [marker, 'quiet'],
        ttl_seconds: 3600,
      });
      const busy = await createLinkVia(h, {
        destination: `https://example.com/${marker}/busy`,
        title: 'Busy one',
        tags: [marker],
        ttl_seconds: 7200,
      });
      const untagged = await createLinkVia(h, { destination: `https://example.com/${marker}/x` });
      for (let i = 0; i < 3; i++) {
        assert.equal(await visit(h, busy.code, { 'user-agent': DESKTOP }), 302);
      }
      // Clicks are folded every 15 s (ADR 0109): wait until the API counts them, or fail
      // here rather than at the table.
      await eventually(
        async () =>
          ((await callApi(h, 'GET', `/v1/links/${busy.id}`)).json as { clicks: number }).clicks ===
          3,
        'the three clicks folded',
        4000,
      );
      const context = await h.browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.hop.url });
      const page = await newPage(h, context);
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      // The tag filter leaves the untagged link out.
      await page.goto(`${h.hop.url}/admin#/links`);
      await page.getByLabel('Tag').fill(marker);
      await page.getByRole('button', { name: 'Search' }).click();
      await waitForRows(page, [busy.code, quiet.code]);
      assert.ok(!(await rowCodes(page)).includes(untagged.code));
      const quietRow = page.locator(`tr[data-code="${quiet.code}"]`);
      assert.match(await quietRow.innerText(), /Quiet one/);
      assert.match(await quietRow.innerText(), new RegExp(`${marker}\\s+quiet`));
      // The destination is one line cut with an ellipsis, the whole of it in its title.
      const cell = quietRow.locator('td.destination');
      assert.deepEqual(
        await cell.evaluate((td) => {
          const style = getComputedStyle(td);
          return [style['textOverflow'], style['whiteSpace']];
        }),
        ['ellipsis', 'nowrap'],
      );
      assert.ok((await cell.getAttribute('title'))?.endsWith('a-very-long-path-segment/'));
      const [scrollWidth, clientWidth] = await cell.evaluate((td) => [
        (td as unknown as { scrollWidth: number }).scrollWidth,
        (td as unknown as { clientWidth: number }).clientWidth,
      ]);
      assert.ok(scrollWidth > clientWidth, 'the long destination is cut, not wrapped');

      // Sorting: fewest clicks first, latest expiry first, soonest expiry first, most clicks
      // first.
      const sortBy = async (sort: string, codes: readonly string[]) => {
        await page.getByLabel('Sort').selectOption(sort);
        await page.getByRole('button', { name: 'Search' }).click();
        await waitForRows(page, codes);
      };
      await sortBy('clicks', [quiet.code, busy.code]);
      await sortBy('-expires_at', [busy.code, quiet.code]);
      await sortBy('expires_at', [quiet.code, busy.code]);
      await sortBy('-clicks', [busy.code, quiet.code]);
      assert.equal(await page.locator(`tr[data-code="${busy.code}"] td.num`).textContent(), '3');
      assert.match(page.url(), /sort=-clicks/);
      assert.equal(
        await page.getByLabel('Sort').inputValue(),
        '-clicks',
        'the form shows the order',
      );
      await page.screenshot({ path: join(h.screenshots, 'links-table.png'), fullPage: true });

      // Copy: the short URL on the clipboard.
      await page.getByRole('button', { name: `Copy ${busy.short_url}` }).click();
      await page.getByTestId('links-status').getByText(`Copied ${busy.short_url}`).waitFor();
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), busy.short_url);
      // QR: the code's image, loaded with the session cookie.
      await page.getByRole('button', { name: `QR code of ${busy.code}` }).click();
      const qr = page.getByRole('img', { name: `QR code of ${busy.short_url}` });
      await qr.waitFor();
      const qrShown = () =>
        qr.evaluate(
          (img) =>
            (img as unknown as { complete: boolean }).complete &&
            (img as unknown as { naturalWidth: number }).naturalWidth > 0,
        );
      for (let i = 0; i < 100 && !(await qrShown()); i++) await page.waitForTimeout(100);
      assert.ok(await qrShown(), 'the QR code shows');
      await page.getByRole('button', { name: 'Close' }).click();
      // Disable from the row: the state changes and the redirect answers 404; enable again.
      const busyRow = page.locator(`tr[data-code="${busy.code}"]`);
      await page.getByRole('button', { name: `Disable ${busy.code}` }).click();
      await busyRow.locator('.state', { hasText: 'disabled' }).waitFor();
      assert.equal(await visit(h, busy.code, { 'user-agent': DESKTOP }), 404);
      await page.getByRole('button', { name: `Enable ${busy.code}` }).click();
      await busyRow.locator('.state', { hasText: 'active' }).waitFor();
      await context.close();

      // At 390 px: the page is no wider than the screen; the table scrolls in its own box.
      const phone = await h.browser.newContext({ viewport: PHONE });
      const small = await newPage(h, phone);
      await signIn(h, small, ADMIN_KEY);
      await small.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await small.goto(`${h.hop.url}/admin#/links?tag=${marker}&sort=-clicks`);
      await waitForRows(small, [busy.code, quiet.code]);
      assert.ok(
        (await small.evaluate<number>('document.scrollingElement.scrollWidth')) <= PHONE.width,
        'no horizontal page overflow',
      );
      const box = await small
        .getByTestId('links-scroll')
        .evaluate((div) => [
          (div as unknown as { scrollWidth: number }).scrollWidth,
          (div as unknown as { clientWidth: number }).clientWidth,
        ]);
      assert.ok(box[1]! <= PHONE.width, 'the table box fits the screen');
      assert.ok(box[0]! >= box[1]!, 'and the table scrolls inside it');
      await small.screenshot({
        path: join(h.screenshots, 'links-table-phone.png'),
        fullPage: true,
      });
      await phone.close();
    });

    test('the chart: API default range, 24 h / 30 d / custom, no stray "1", readable at 390 px, ZZ as Unknown, thin share bars', async () => {
      const empty = await createLinkVia(h, { destination: 'https://example.com/no-clicks' });
      const clicked = await createLinkVia(h, { destination: 'https://example.com/one-country' });
      // No country header: hop cannot tell, and says ZZ.
      assert.equal(await visit(h, clicked.code, { 'user-agent': DESKTOP }), 302);

      const phone = await h.browser.newContext({ viewport: PHONE });
      const page = await newPage(h, phone);
      const analyticsRequests: string[] = [];
      page.on('request', (request) => {
        // A link's analytics; the dashboard's across all links (ADR 0126) are not counted here.
        if (/\/v1\/links\/[^/]+\/analytics/.test(request.url())) {
          analyticsRequests.push(request.url());
        }
      });
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      // An empty chart: no scale, so no lone "1"; the range is the API's own default.
      await page.goto(`${h.hop.url}/admin#/links/${empty.id}`);
      const figure = page.locator('figure.chart');
      await figure.locator('figcaption', { hasText: 'clicks by hour' }).waitFor();
      assert.equal(await page.getByTestId('chart-max').count(), 0);
      // A date names a day ("1 Dec, 01:00" from the 1st to the 8th of a month), not a
      // count: only a lone "1" elsewhere would be a scale's.
      const words = (await figure.innerText())
        .replace(/\b\d{1,2} [A-Z][a-z]{2},?/g, '')
        .split(/\s+/);
      assert.ok(!words.includes('1'), `no stray "1" in ${JSON.stringify(words)}`);
      assert.match(await figure.innerText(), /No clicks in this range/);
      assert.equal(analyticsRequests.length, 1);
      assert.ok(
        analyticsRequests[0]!.endsWith(`/v1/links/${empty.id}/analytics`),
        `the default range asks for none: ${analyticsRequests[0]!}`,
      );
      assert.equal(
        await page.getByRole('button', { name: '7 d' }).getAttribute('aria-pressed'),
        'true',
      );

      // One click: the chart's labels are readable on a phone, ZZ reads Unknown, and a
      // one-row breakdown's bar is a bar, not a block.
      await page.goto(`${h.hop.url}/admin#/links/${clicked.id}`);
      await refreshUntilTotal(page, '1');
      const fontSizes = await page
        .locator('figure.chart .axis')
        .evaluateAll((labels) =>
          labels.map((label) => parseFloat(getComputedStyle(label)['fontSize'] ?? '')),
        );
      assert.ok(fontSizes.length >= 2);
      for (const size of fontSizes) assert.ok(size >= 11, `axis text ${size}px at 390 px`);
      assert.deepEqual(await breakdownRows(page, 'By country'), ['Unknown\t1']);
      const share = page
        .locator('table.breakdown', { has: page.locator('caption', { hasText: 'By country' }) })
        .locator('.share');
      const bar = await share.boundingBox();
      assert.ok(bar !== null && bar.height > 0 && bar.height <= 8, `a thin bar: ${bar?.height}`);
      assert.ok(
        (await page.evaluate<number>('document.scrollingElement.scrollWidth')) <= PHONE.width,
      );

      // The range picker: 24 h by hour, 30 d by day (the API's own 30 days), custom from/to.
      analyticsRequests.length = 0;
      await page.getByRole('button', { name: '24 h' }).click();
      await figure.locator('figcaption', { hasText: 'clicks by hour' }).waitFor();
      const hourly = await page.locator('svg rect.bar').count();
      assert.ok(hourly >= 24 && hourly <= 26, `a day of hours: ${hourly}`);
      assert.match(analyticsRequests.at(-1)!, /bucket=hour&from=/);
      await page.getByRole('button', { name: '30 d' }).click();
      await figure.locator('figcaption', { hasText: 'clicks by day' }).waitFor();
      assert.match(analyticsRequests.at(-1)!, /\/analytics\?bucket=day$/);
      await page.getByRole('button', { name: 'Custom' }).click();
      await page.getByLabel('From').fill('2026-01-01T00:00');
      await page.getByLabel('To').fill('2026-01-03T00:00');
      await page.getByRole('button', { name: 'Show' }).click();
      await figure.locator('figcaption', { hasText: /1 Jan.*to.*3 Jan/ }).waitFor();
      const custom = new URL(analyticsRequests.at(-1)!).searchParams;
      assert.equal(custom.get('from'), new Date('2026-01-01T00:00').toISOString());
      assert.equal(custom.get('to'), new Date('2026-01-03T00:00').toISOString());
      assert.equal(custom.get('bucket'), 'hour');
      await page.getByRole('button', { name: '7 d' }).click();
      await figure.locator('figcaption', { hasText: 'clicks by hour' }).waitFor();
      await page.screenshot({ path: join(h.screenshots, 'link-page-range.png'), fullPage: true });
      await phone.close();
    });
  });
});

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { whenChromium } from '../support/browser.js';
import {
  ADMIN_KEY,
  breakdownRows,
  callApi,
  createLinkVia,
  DESKTOP,
  IPHONE,
  newPage,
  ownerKeyVia,
  signIn,
  useConsoleHarness,
  visit,
} from '../support/console-harness.js';
import { eventually } from '../support/eventually.js';

/**
 * Issue 23: the dashboard's clicks across all links (`GET /v1/analytics`, ADR 0126), from
 * real redirects folded by a real `hop serve`, in headless Chromium.
 */
whenChromium('dashboard analytics in Chromium', () => {
  describe("the dashboard's clicks across links, in headless Chromium", () => {
    const h = useConsoleHarness();

    /** Polls the API until the owner's total is `total` (clicks fold every 100 ms here). */
    const folded = (key: string, total: number) =>
      eventually(
        async () =>
          ((await callApi(h, 'GET', '/v1/analytics', undefined, key)).json as { total: number })
            .total === total,
        `a total of ${total} clicks`,
        3000,
      );

    test("an owner's dashboard: the chart, top links and breakdowns of its own links, kept current", async () => {
      const key = await ownerKeyVia(h, 'carol-dashboard');
      const spring = await createLinkVia(
        h,
        { destination: 'https://example.com/spring', title: 'Spring sale' },
        key,
      );
      const docs = await createLinkVia(h, { destination: 'https://example.com/docs' }, key);
      // Someone else's clicks are not Carol's.
      const other = await createLinkVia(h, { destination: 'https://example.com/not-carol' });
      for (let i = 0; i < 4; i++) {
        assert.equal(await visit(h, spring.code, { 'user-agent': IPHONE, 'x-country': 'DE' }), 302);
      }
      assert.equal(await visit(h, docs.code, { 'user-agent': DESKTOP, 'x-country': 'FR' }), 302);
      assert.equal(await visit(h, other.code, { 'user-agent': DESKTOP }), 302);
      await folded(key, 5);

      const page = await newPage(h);
      await page.setViewportSize({ width: 1200, height: 900 });
      await signIn(h, page, key);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByRole('heading', { name: 'Clicks across your links' }).waitFor();
      // No service-wide figures for an owner (ADR 0096).
      assert.equal(await page.getByTestId('clicks-today').count(), 0);

      // The chart: the total, and a bar holding this hour's clicks.
      await page.getByTestId('clicks-total').filter({ hasText: '5' }).waitFor();
      const bars = await page
        .locator('figure.chart rect.bar')
        .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-clicks'))));
      assert.equal(
        bars.reduce((a, b) => a + b, 0),
        5,
      );
      // The top links, most first, Carol's only.
      const top = await page
        .getByTestId('top-links')
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => (row as { innerText: string }).innerText));
      assert.equal(top.length, 2);
      assert.match(top[0] ?? '', new RegExp(`${spring.code}\\s+Spring sale\\s+4`));
      assert.match(top[1] ?? '', new RegExp(`${docs.code}\\s+1`));
      // A breakdown.
      assert.deepEqual(await breakdownRows(page, 'By country'), ['DE\t4', 'FR\t1']);
      assert.deepEqual(await breakdownRows(page, 'By device'), ['mobile\t4', 'desktop\t1']);

      // The range picker: 90 days by day, still the same clicks.
      await page.getByRole('button', { name: '90 d' }).click();
      await page.getByText(/clicks by day/).waitFor();
      await page.getByTestId('clicks-total').filter({ hasText: '5' }).waitFor();
      await page.getByRole('button', { name: '24 h' }).click();
      await page.getByText(/clicks by hour/).waitFor();

      await page.screenshot({
        path: join(h.screenshots, 'dashboard-analytics.png'),
        fullPage: true,
      });

      // Kept current without a reload: two more clicks reach the page by its live refresh.
      assert.equal(await visit(h, docs.code, { 'user-agent': DESKTOP, 'x-country': 'FR' }), 302);
      assert.equal(await visit(h, docs.code, { 'user-agent': DESKTOP, 'x-country': 'FR' }), 302);
      await folded(key, 7);
      await page.getByTestId('clicks-total').filter({ hasText: '7' }).waitFor({ timeout: 60_000 });
      assert.deepEqual(await breakdownRows(page, 'By country'), ['DE\t4', 'FR\t3']);
      await page.context().close();
    });

    test("an admin's dashboard keeps the service figures and adds every link's clicks", async () => {
      const page = await newPage(h);
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByTestId('clicks-today').waitFor();
      await page.getByRole('heading', { name: 'Clicks across your links' }).waitFor();
      await page.getByTestId('top-links').waitFor();
      await page.context().close();
    });
  });
});

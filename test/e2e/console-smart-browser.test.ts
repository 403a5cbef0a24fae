import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page, Request } from 'playwright-core';
import { whenChromium } from '../support/browser.js';
import {
  ADMIN_KEY,
  assertFieldErrorOnce,
  callApi,
  createLinkVia,
  newPage,
  signIn,
  useConsoleHarness,
} from '../support/console-harness.js';

/**
 * Issue 21 in a browser: the console's "Smart link" section in the create form and on a
 * link's page, and the password page a visitor of a protected link sees. Destinations are
 * on example.com, answered inside Chromium (page.route): only loopback is reachable here,
 * and hop refuses loopback destinations.
 */
whenChromium('smart links in the console', () => {
  describe('smart links in the console and the password page, in headless Chromium', () => {
    const h = useConsoleHarness();

    /** A signed-in console page; datetime-local inputs read in Berlin time. */
    const consolePage = async (viewport = { width: 1280, height: 720 }) => {
      const context = await h.browser.newContext({ timezoneId: 'Europe/Berlin', viewport });
      const page = await newPage(h, context);
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      return page;
    };
    const openCreateForm = async (page: Page) => {
      await page.getByRole('link', { name: 'New link' }).click();
      await page.getByRole('heading', { name: 'New link' }).waitFor();
      await page.locator('details.smart > summary').click();
    };
    const rule = (page: Page, n: number) =>
      page.getByRole('group', { name: `Rule ${n}`, exact: true });
    const choose = async (group: Locator, legend: string, choices: readonly string[]) => {
      for (const choice of choices) {
        await group
          .getByRole('group', { name: legend })
          .getByLabel(choice, { exact: true })
          .check();
      }
    };
    const linkJson = async (id: string) => {
      const got = await callApi(h, 'GET', `/v1/links/${id}`);
      assert.equal(got.status, 200);
      return got.json as Record<string, unknown>;
    };
    const overflow = (page: Page) =>
      page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

    test('create a smart link with the form, use its password page, edit it on its page', async () => {
      const page = await consolePage();
      await openCreateForm(page);
      await page.getByLabel('Destination', { exact: true }).fill('https://example.com/landing');

      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('button', { name: 'Add rule' }).click();
      const first = rule(page, 1);
      await first.getByLabel('Rule 1 destination').fill('https://example.com/phones');
      await first.getByLabel('Rule 1 status').selectOption('307');
      await choose(first, 'Device', ['mobile', 'tablet']);
      await first.getByLabel('Countries').fill('DE, at');
      await first.getByLabel('Query parameters').fill('ref=mail\npromo');
      // Berlin's midnight on New Year's Day is 23:00 UTC the day before.
      await first.getByLabel('Starts').fill('2026-01-01T00:00');
      const second = rule(page, 2);
      await second.getByLabel('Rule 2 destination').fill('https://example.com/apps');
      await choose(second, 'Operating system', ['ios', 'android']);
      await second.getByLabel('Languages').fill('de, fr');
      await second.getByLabel('IP addresses').fill('203.0.113.0/24, 2001:db8::/32');
      await second.getByLabel('Ends').fill('2030-06-01T12:00');

      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByLabel('Variant 1 destination').fill('https://example.com/a');
      await page.getByLabel('Variant 1 weight').fill('30');
      await page.getByLabel('Variant 2 destination').fill('https://example.com/b');
      await page.getByLabel('Variant 2 weight').fill('10');
      assert.deepEqual(await page.getByTestId('variant-share').allTextContents(), ['75 %', '25 %']);
      await page.getByLabel('Password (optional)').fill('open sesame');
      await page.getByLabel('Click limit (empty: none)').fill('10');
      await page.getByLabel('Fallback URL (optional)').fill('https://example.com/over');
      await page.getByLabel('Forward the query string').check();
      await page.getByLabel('UTM source').fill('newsletter');
      await page.getByLabel('UTM campaign').fill('spring');
      await page
        .locator('form.create')
        .screenshot({ path: join(h.screenshots, 'create-smart.png') });

      await page.getByRole('button', { name: 'Create link' }).click();
      await page.waitForURL(/#\/links\/[0-9A-Z]{26}$/);
      const id = page.url().split('/').at(-1) ?? '';
      const expectedRules = [
        {
          destination: 'https://example.com/phones',
          status_code: 307,
          when: {
            device: ['mobile', 'tablet'],
            country: ['DE', 'AT'],
            query: { ref: 'mail', promo: true },
            after: '2025-12-31T23:00:00.000Z',
          },
        },
        {
          destination: 'https://example.com/apps',
          when: {
            os: ['ios', 'android'],
            language: ['de', 'fr'],
            ip: ['203.0.113.0/24', '2001:db8::/32'],
            before: '2030-06-01T10:00:00.000Z',
          },
        },
      ];
      const expectedVariants = [
        { destination: 'https://example.com/a', weight: 30 },
        { destination: 'https://example.com/b', weight: 10 },
      ];
      const created = await linkJson(id);
      assert.equal(
        created['destination'],
        'https://example.com/landing?utm_source=newsletter&utm_campaign=spring',
      );
      assert.deepEqual(created['rules'], expectedRules);
      assert.deepEqual(created['variants'], expectedVariants);
      assert.equal(created['password_protected'], true);
      assert.equal(created['max_clicks'], 10);
      assert.equal(created['fallback_url'], 'https://example.com/over');
      assert.equal(created['forward_query'], true);
      assert.deepEqual(created['utm'], { source: 'newsletter', campaign: 'spring' });
      assert.equal('password' in created, false);

      // Read mode: the settings in a line, and each rule and variant.
      assert.equal(
        await page.getByTestId('smart-summary').textContent(),
        '2 rules, 2 variants, password protected, limit 10 clicks, fallback set, forwards the query',
      );
      assert.equal(await page.getByTestId('smart-rules').locator('li').count(), 2);
      assert.deepEqual(await page.getByTestId('smart-variants').locator('li').allTextContents(), [
        '75 % → https://example.com/a',
        '25 % → https://example.com/b',
      ]);
      // The edit form shows them too, never the password.
      assert.equal(await page.getByLabel('New password (empty: keep it)').inputValue(), '');
      assert.equal(await rule(page, 1).getByLabel('Countries').inputValue(), 'DE, AT');
      assert.equal(await rule(page, 1).getByLabel('Starts').inputValue(), '2026-01-01T00:00');
      assert.equal(await page.getByLabel('UTM source').inputValue(), 'newsletter');
      await page
        .locator('section[aria-labelledby="details"]')
        .screenshot({ path: join(h.screenshots, 'link-smart.png') });

      // The visitor: no rule holds for a desktop Linux Chromium, so a variant, with the
      // visitor's query forwarded, once the password is right.
      const shortUrl = created['short_url'] as string;
      const visitor = await newPage(h, await h.browser.newContext());
      const arrived: string[] = [];
      await visitor.route('https://example.com/**', async (route) => {
        arrived.push(route.request().url());
        await route.fulfill({ contentType: 'text/html', body: '<h1>Arrived</h1>' });
      });
      const shown = await visitor.goto(`${shortUrl}?from=qr`);
      assert.equal(shown?.status(), 200);
      await visitor.getByRole('heading', { name: 'Password required' }).waitFor();
      await visitor.screenshot({ path: join(h.screenshots, 'password-page.png') });
      const posted = (status: number) =>
        visitor.waitForResponse(
          (response) => response.request().method() === 'POST' && response.status() === status,
        );
      await visitor.getByLabel('Password').fill('not it');
      const refused = posted(401);
      await visitor.getByRole('button', { name: 'Continue' }).click();
      await refused;
      await visitor.getByRole('alert').getByText('That password is not right.').waitFor();
      await visitor.screenshot({ path: join(h.screenshots, 'password-page-wrong.png') });
      await visitor.getByLabel('Password').fill('open sesame');
      const redirected = posted(302);
      await visitor.getByRole('button', { name: 'Continue' }).click();
      const redirect = await redirected;
      await visitor.getByRole('heading', { name: 'Arrived' }).waitFor();
      const landed = visitor.url();
      assert.ok(
        ['https://example.com/a?from=qr', 'https://example.com/b?from=qr'].includes(landed),
        landed,
      );
      assert.equal(redirect.headers()['location'], landed);
      assert.deepEqual(arrived, [landed]);
      await visitor.context().close();

      // Edit: rule 2 moves up, the other one's countries change, the limit is cleared. The
      // PATCH carries exactly that: the rules as a whole, the limit, and no password.
      await rule(page, 2).getByRole('button', { name: 'Move rule 2 up' }).click();
      await rule(page, 1).getByLabel('Rule 1 destination').waitFor();
      assert.equal(
        await rule(page, 1).getByLabel('Rule 1 destination').inputValue(),
        'https://example.com/apps',
      );
      await rule(page, 2).getByLabel('Countries').fill('FR');
      await page.getByLabel('Click limit (empty: none)').fill('');
      const patch = (await savePatch(page)).postDataJSON() as Record<string, unknown>;
      assert.deepEqual(Object.keys(patch).sort(), ['max_clicks', 'rules']);
      assert.equal(patch['max_clicks'], null);
      await page.getByTestId('saved').getByText('Saved version 2').waitFor();
      const reordered = [
        expectedRules[1],
        { ...expectedRules[0], when: { ...expectedRules[0]?.when, country: ['FR'] } },
      ];
      const edited = await linkJson(id);
      assert.deepEqual(edited['rules'], reordered);
      assert.equal(edited['max_clicks'], null);
      assert.equal(edited['password_protected'], true, 'the password was left alone');
      assert.deepEqual(edited['variants'], expectedVariants);
      assert.equal(edited['forward_query'], true);
      assert.deepEqual(edited['utm'], { source: 'newsletter', campaign: 'spring' });

      // Remove the password: the PATCH says password null and nothing else.
      await page.getByLabel('Remove the password').check();
      const removal = (await savePatch(page)).postDataJSON() as Record<string, unknown>;
      assert.deepEqual(removal, { password: null });
      await page.getByTestId('saved').getByText('Saved version 3').waitFor();
      const unlocked = await linkJson(id);
      assert.equal(unlocked['password_protected'], false);
      assert.deepEqual(unlocked['rules'], reordered);
      assert.equal(
        await page.getByTestId('smart-summary').textContent(),
        '2 rules, 2 variants, fallback set, forwards the query',
      );
      // Saving again with nothing touched sends nothing.
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Nothing changed.').waitFor();
      await page.context().close();
    });

    test('a bad country is refused under its rule field, in the create and the edit form', async () => {
      const page = await consolePage();
      await openCreateForm(page);
      await page.getByLabel('Destination', { exact: true }).fill('https://example.com/where');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await rule(page, 1).getByLabel('Rule 1 destination').fill('https://example.com/de');
      await rule(page, 1).getByLabel('Countries').fill('Germany');
      await page.getByRole('button', { name: 'Create link' }).click();
      await assertFieldErrorOnce(page, 'new-rules-0-when-country', /ISO 3166-1 alpha-2/);

      const link = await createLinkVia(h, {
        destination: 'https://example.com/plain',
        rules: [{ destination: 'https://example.com/at', when: { country: ['AT'] } }],
      });
      await page.goto(`${h.hop.url}/admin#/links/${link.id}`);
      await rule(page, 1).getByLabel('Countries').fill('AT, Austria');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await assertFieldErrorOnce(page, 'edit-rules-0-when-country', /ISO 3166-1 alpha-2/);
      // A click limit that is not a whole number is sent as typed, and refused under it.
      await rule(page, 1).getByLabel('Countries').fill('AT');
      await page.getByLabel('Click limit (empty: none)').fill('ten');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await assertFieldErrorOnce(page, 'edit-max_clicks', /whole number/);
      assert.equal((await linkJson(link.id))['max_clicks'], null);
      await page.context().close();
    });

    test('the smart section fits a phone', async () => {
      const page = await consolePage({ width: 390, height: 844 });
      await openCreateForm(page);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('button', { name: 'Add variant' }).click();
      assert.ok((await overflow(page)) <= 0, 'the create form fits');
      await page.screenshot({
        path: join(h.screenshots, 'create-smart-phone.png'),
        fullPage: true,
      });

      const link = await createLinkVia(h, {
        destination: 'https://example.com/phone?utm_source=sms',
        rules: [
          {
            destination: 'https://example.com/a-very-long-destination/that/should/wrap/somewhere',
            when: { device: ['mobile'], country: ['DE'] },
          },
        ],
        variants: [
          { destination: 'https://example.com/one', weight: 1 },
          { destination: 'https://example.com/two', weight: 2 },
        ],
        password: 'phone pass',
        max_clicks: 100,
      });
      await page.goto(`${h.hop.url}/admin#/links/${link.id}`);
      await page.getByTestId('smart-summary').waitFor();
      assert.ok((await overflow(page)) <= 0, 'the link page fits');
      // The visitor's password page fits a phone too.
      await page.goto(link.short_url);
      await page.getByRole('heading', { name: 'Password required' }).waitFor();
      assert.ok((await overflow(page)) <= 0, 'the password page fits');
      await page.context().close();
    });
  });
});

/** Presses "Save changes" and gives the PATCH it sent. */
async function savePatch(page: Page): Promise<Request> {
  const sent = page.waitForRequest((request) => request.method() === 'PATCH');
  await page.getByRole('button', { name: 'Save changes' }).click();
  return sent;
}

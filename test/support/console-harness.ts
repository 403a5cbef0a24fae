import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { freePort } from './free-port.js';
import { startHop, stopHop, type ServeProcess } from './hop-process.js';
import { tempDataDir } from './temp-data.js';

export const ADMIN_KEY = 'hop_console_e2e_admin_key_0123456789';
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
export const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
/**
 * With UPDATE_SCREENSHOTS=1 the screenshots README shows are rewritten in docs/screenshots;
 * otherwise they go to the test's own folder, so a test run never dirties the checkout.
 */
const UPDATE_SCREENSHOTS = process.env['UPDATE_SCREENSHOTS'] === '1';

export interface ApiLink {
  id: string;
  code: string;
  short_url: string;
}

/** A real hop (the built CLI) and a headless Chromium, for one describe of browser tests. */
export interface ConsoleHarness {
  readonly hop: ServeProcess;
  readonly browser: Browser;
  /** Where screenshots go (docs/screenshots with UPDATE_SCREENSHOTS=1). */
  readonly screenshots: string;
}

/**
 * Starts hop and Chromium before the describe's tests and stops them after; the returned
 * object is filled in by then. Clicks are folded every 100 ms; `x-country` names a
 * visitor's country.
 */
export function useConsoleHarness(): ConsoleHarness {
  const harness = {} as { hop: ServeProcess; browser: Browser; screenshots: string };
  // Made while the describe registers, so it is removed after the suite: an `after` called
  // inside `before` runs when the hook ends, and hop opens files here later (a list sorted
  // by clicks opens a connection of its own).
  const dir = tempDataDir({ after });
  before(async () => {
    harness.screenshots = UPDATE_SCREENSHOTS ? 'docs/screenshots' : join(dir, 'screenshots');
    mkdirSync(harness.screenshots, { recursive: true });
    const port = await freePort();
    harness.hop = await startHop({
      HOP_PORT: String(port),
      HOP_PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOP_DATA_DIR: dir,
      HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      HOP_CLICK_FLUSH_INTERVAL: '100ms',
      HOP_COUNTRY_HEADER: 'x-country',
      // The console is under test here, not load shedding (test/http/load-shedding): on a
      // busy shared machine the event loop lags past the default 200 ms and /admin got 503.
      HOP_SHED_LAG: '10s',
    });
    harness.browser = await launchChromium();
  });
  after(async () => {
    await harness.browser.close();
    await stopHop(harness.hop);
  });
  return harness;
}

/** A v1 API call with a bearer key (the admin's unless given). */
export async function callApi(
  harness: ConsoleHarness,
  method: string,
  path: string,
  body?: unknown,
  key = ADMIN_KEY,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${harness.hop.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const json: unknown = await response.json().catch(() => null);
  return { status: response.status, json };
}

export async function createLinkVia(
  harness: ConsoleHarness,
  body: Record<string, unknown>,
  key = ADMIN_KEY,
): Promise<ApiLink> {
  const created = await callApi(harness, 'POST', '/v1/links', body, key);
  assert.equal(created.status, 201, JSON.stringify(created.json));
  return created.json as ApiLink;
}

/** A new owner's key, issued by the admin. */
export async function ownerKeyVia(harness: ConsoleHarness, owner: string): Promise<string> {
  const issued = await callApi(harness, 'POST', '/v1/keys', { owner });
  assert.equal(issued.status, 201, JSON.stringify(issued.json));
  return (issued.json as { key: string }).key;
}

/** A redirect as a visitor's browser makes it; the redirect is not followed. */
export async function visit(
  harness: ConsoleHarness,
  code: string,
  headers: Record<string, string>,
): Promise<number> {
  return (await fetch(`${harness.hop.url}/${code}`, { redirect: 'manual', headers })).status;
}

export async function newPage(harness: ConsoleHarness, context?: BrowserContext): Promise<Page> {
  const page = await (context ?? (await harness.browser.newContext())).newPage();
  // Generous: the machine the tests share may be busy; a waiting step fails only past it.
  page.setDefaultTimeout(30_000);
  return page;
}

export async function signIn(harness: ConsoleHarness, page: Page, key: string): Promise<void> {
  await page.goto(`${harness.hop.url}/admin`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The API's rule for one field shows under it (tied by aria-describedby), said once on the
 * page, with no alert on top repeating it.
 */
export async function assertFieldErrorOnce(
  page: Page,
  inputId: string,
  rule: RegExp,
): Promise<void> {
  const error = page.locator(`#${inputId}-error`);
  await error.waitFor();
  const message = (await error.textContent()) ?? '';
  assert.match(message, rule);
  assert.equal(
    await page
      .locator(`#${inputId}`)
      .getAttribute('aria-describedby')
      .then((ids) => ids?.includes(`${inputId}-error`)),
    true,
  );
  const text = await page.locator('main').innerText();
  assert.equal(text.split(message).length - 1, 1, `"${message}" is said once`);
  assert.equal(await page.getByRole('alert').count(), 0, 'no alert repeats it on top');
}

/** A breakdown table's rows as `name<TAB>clicks`. */
export function breakdownRows(page: Page, caption: string): Promise<string[]> {
  return page
    .locator('table.breakdown', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cells = row.querySelectorAll('td') as ArrayLike<{ textContent: string }>;
        return Array.from(cells, (cell) => cell.textContent).join('\t');
      }),
    );
}

/** Presses the link page's Refresh until its clicks total reads `total` (clicks fold every 100 ms). */
export async function refreshUntilTotal(page: Page, total: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await page.getByRole('button', { name: 'Refresh' }).click();
    if ((await page.getByTestId('clicks-total').textContent()) === total) break;
    await page.waitForTimeout(100);
  }
  assert.equal(await page.getByTestId('clicks-total').textContent(), total);
}

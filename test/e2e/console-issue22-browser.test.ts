import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { whenChromium } from '../support/browser.js';
import {
  ADMIN_KEY,
  assertFieldErrorOnce,
  callApi,
  createLinkVia,
  DESKTOP,
  newPage,
  signIn,
  useConsoleHarness,
  visit,
} from '../support/console-harness.js';

interface DomainJson {
  host: string;
  default: boolean;
  root_redirect: string | null;
  not_found_redirect: string | null;
  https: boolean;
}

/**
 * Issue 22 in the console: the domains, keys and tags pages, multi-select with bulk
 * actions on the links table, and the domain shown, filtered and chosen. One hop and one
 * Chromium for every case (CI time); each case makes its own domains, keys and links.
 */
whenChromium('the console for issue 22, in Chromium', () => {
  describe('domains, keys, tags and bulk actions in headless Chromium against a real hop', () => {
    const h = useConsoleHarness();
    const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const adminPage = async (hash: string): Promise<Page> => {
      const page = await newPage(h);
      await signIn(h, page, ADMIN_KEY);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.goto(`${h.hop.url}/admin${hash}`);
      return page;
    };
    const addDomain = async (host: string, body: Record<string, unknown> = {}) => {
      const added = await callApi(h, 'POST', '/v1/domains', { host, ...body });
      assert.equal(added.status, 201, JSON.stringify(added.json));
    };
    /** Waits for `read` to give `expected` (a list loads again after each change). */
    const until = async <T>(read: () => Promise<T>, expected: T) => {
      for (let i = 0; i < 200; i++) {
        if (JSON.stringify(await read()) === JSON.stringify(expected)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(await read(), expected);
    };
    /**
     * The tags case's links and click, made before every case: hop folds clicks every 15 s
     * (src/main/click-pipeline.ts), so the fold that counts this click runs meanwhile.
     */
    let tagged: {
      marker: string;
      alpha: string;
      beta: string;
      three: { id: string; code: string };
    };
    before(async () => {
      const marker = `t${unique()}`;
      const [alpha, beta] = [`${marker}-alpha`, `${marker}-beta`];
      const one = await createLinkVia(h, { destination: 'https://example.com/t1', tags: [alpha] });
      await createLinkVia(h, { destination: 'https://example.com/t2', tags: [alpha, beta] });
      const three = await createLinkVia(h, { destination: 'https://example.com/t3', tags: [beta] });
      assert.equal(await visit(h, one.code, { 'user-agent': DESKTOP }), 302);
      tagged = { marker, alpha, beta, three };
    });
    const readDomain = async (host: string) =>
      (await callApi(h, 'GET', `/v1/domains/${host}`)).json as DomainJson;

    test('domains: listed default first; added with redirects and http; a bad URL under its field; edited; deleted, and refused with 409 while a link uses it', async () => {
      const host = `go-${unique()}.example`;
      const spare = `spare-${unique()}.example`;
      await addDomain(spare);
      const page = await adminPage('#/domains');
      await page.getByRole('heading', { name: 'Domains' }).waitFor();
      const hosts = () =>
        page
          .locator('table.domains tbody tr')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-host')));
      await page.locator(`tr[data-host="${spare}"]`).waitFor();
      const defaultHost = new URL(h.hop.url).hostname;
      assert.equal((await hosts())[0], defaultHost, 'the default domain comes first');
      const defaultRow = page.locator(`tr[data-host="${defaultHost}"]`);
      await defaultRow.locator('.badge', { hasText: 'default' }).waitFor();
      assert.equal(await defaultRow.getByRole('button', { name: /Delete/ }).count(), 0);

      // Not a URL: the API's rule under the root redirect's field, once.
      const form = page.locator('form', {
        has: page.getByRole('heading', { name: 'Add a domain' }),
      });
      await form.getByLabel('Host').fill(host);
      await form.getByLabel('Root redirect (optional)').fill('not a url');
      await form.getByRole('button', { name: 'Add domain' }).click();
      await assertFieldErrorOnce(page, 'domain-new-root_redirect', /.+/);

      await form.getByLabel('Root redirect (optional)').fill('https://example.com/home');
      await form.getByLabel('Not-found redirect (optional)').fill('https://example.com/missing');
      await form.getByLabel('Short URLs use https').uncheck();
      await form.getByRole('button', { name: 'Add domain' }).click();
      await page.getByTestId('domains-status').getByText(`Added ${host}.`).waitFor();
      const row = page.locator(`tr[data-host="${host}"]`);
      assert.match(await row.innerText(), /https:\/\/example\.com\/home/);
      assert.match(await row.innerText(), /https:\/\/example\.com\/missing/);
      const added = await readDomain(host);
      assert.equal(added.root_redirect, 'https://example.com/home');
      assert.equal(added.not_found_redirect, 'https://example.com/missing');
      assert.equal(added.https, false);

      // Edit: the form takes focus; the root redirect is removed, https turned on.
      await page.getByRole('button', { name: `Edit ${host}` }).click();
      const edit = page.locator('form', {
        has: page.getByRole('heading', { name: `Edit ${host}` }),
      });
      await edit.getByLabel('Root redirect (optional)').fill('');
      await edit.getByLabel('Short URLs use https').check();
      await edit.getByRole('button', { name: 'Save domain' }).click();
      await page.getByTestId('domains-status').getByText(`Saved ${host}.`).waitFor();
      const saved = await readDomain(host);
      assert.equal(saved.root_redirect, null);
      assert.equal(saved.https, true);
      assert.equal(saved.not_found_redirect, 'https://example.com/missing');

      // The create form offers the domain; the link's page and the table say it.
      await page.goto(`${h.hop.url}/admin#/new`);
      await page.getByLabel('Domain').selectOption(host);
      await page.getByLabel('Destination').fill(`https://example.com/${host}`);
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByTestId('domain').getByText(host).waitFor();
      assert.match(
        (await page.getByTestId('short-url').textContent()) ?? '',
        new RegExp(`^https://${host}/`),
      );

      // In use: the API's 409 shown as an alert; the spare one goes.
      await page.goto(`${h.hop.url}/admin#/domains`);
      await page.getByRole('button', { name: `Delete ${host}` }).click();
      await page.getByRole('button', { name: `Delete ${host} for good` }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /.+/);
      assert.equal((await callApi(h, 'GET', `/v1/domains/${host}`)).status, 200);
      await page.screenshot({ path: join(h.screenshots, 'domains.png'), fullPage: true });
      await page.getByRole('button', { name: `Delete ${spare}` }).click();
      await page.getByRole('button', { name: `Delete ${spare} for good` }).click();
      await page.getByTestId('domains-status').getByText(`Deleted ${spare}.`).waitFor();
      await page.locator(`tr[data-host="${spare}"]`).waitFor({ state: 'detached' });
      await row.waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'the earlier refusal is gone');
      assert.equal((await callApi(h, 'GET', `/v1/domains/${spare}`)).status, 404);
      await page.context().close();
    });

    test('keys: a refusal under its field; created with a name, scopes, a domain and an expiry; the secret once; last used; revoked; a scoped key sees no Keys page', async () => {
      const host = `keys-${unique()}.example`;
      await addDomain(host);
      const owner = `keys-${unique()}`;
      const page = await adminPage('#/keys');
      await page.getByRole('heading', { name: 'API keys' }).waitFor();

      // No owner: the API's rule under the owner field.
      await page.getByRole('button', { name: 'Create key' }).click();
      await assertFieldErrorOnce(page, 'key-owner', /.+/);

      await page.getByLabel('Owner').fill(owner);
      await page.getByLabel('Name (optional)').fill('reporting bot');
      // An owner key's three scopes are ticked to begin with: keep reading only.
      await page.getByRole('checkbox', { name: 'links:write' }).uncheck();
      await page.getByRole('checkbox', { name: 'analytics:read' }).uncheck();
      await page.getByRole('checkbox', { name: host }).check();
      await page.getByLabel('Key expires (optional)').fill('2030-01-01T12:00');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
      assert.match(secret, /^hop_/);
      // The secret panel takes focus.
      await page.locator('section.secret:focus').waitFor();
      const listed = (
        (await callApi(h, 'GET', '/v1/keys')).json as { keys: Record<string, unknown>[] }
      ).keys.find((key) => key['owner'] === owner);
      assert.ok(listed !== undefined);
      assert.equal(listed['name'], 'reporting bot');
      assert.deepEqual(listed['scopes'], ['links:read']);
      assert.deepEqual(listed['domains'], [host]);
      assert.equal(listed['expires_at'], new Date('2030-01-01T12:00').toISOString());
      const row = page.locator(`tr[data-key-id="${String(listed['id'])}"]`);
      assert.match(await row.innerText(), /reporting bot/);
      assert.equal(await row.getByTestId('last-used').textContent(), 'never');
      await page.screenshot({ path: join(h.screenshots, 'keys.png'), fullPage: true });

      // The key reads and is refused a write; the table then says when it was used.
      assert.equal((await callApi(h, 'GET', '/v1/links', undefined, secret)).status, 200);
      const write = await callApi(
        h,
        'POST',
        '/v1/links',
        { destination: 'https://example.com/' },
        secret,
      );
      assert.equal(write.status, 403);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('new-key-secret').waitFor({ state: 'detached' });
      // The use is recorded beside the call: reload until the table shows it.
      for (let i = 0; i < 50; i++) {
        await page.reload();
        await row.waitFor();
        if ((await row.getByTestId('last-used').textContent()) !== 'never') break;
        await page.waitForTimeout(100);
      }
      assert.notEqual(await row.getByTestId('last-used').textContent(), 'never');
      assert.ok(
        !(await page.locator('main').innerText()).includes(secret),
        'the secret is shown once',
      );

      // Signed in with it: no Keys page, and the domains page offers no changes.
      const scoped = await newPage(h);
      await signIn(h, scoped, secret);
      await scoped.getByRole('heading', { name: 'Links' }).waitFor();
      assert.equal(await scoped.getByRole('link', { name: 'Keys' }).count(), 0);
      await scoped.getByRole('link', { name: 'Domains' }).click();
      await scoped.locator(`tr[data-host="${host}"]`).waitFor();
      assert.equal(await scoped.locator('table.domains tbody tr').count(), 1, 'only its domain');
      assert.equal(await scoped.getByRole('heading', { name: 'Add a domain' }).count(), 0);
      await scoped.context().close();

      // Revoked: the row says so and the key is refused.
      await row.getByRole('button', { name: 'Revoke reporting bot' }).click();
      await row.getByRole('button', { name: 'Revoke for good' }).click();
      await row.locator('.state', { hasText: 'revoked' }).waitFor();
      assert.equal((await callApi(h, 'GET', '/v1/links', undefined, secret)).status, 401);
      await page.context().close();
    });

    test('the links table: the domain shown and filtered; ticked links tagged, disabled, enabled and deleted in bulk; a failure listed', async () => {
      const marker = `b${unique()}`;
      const host = `bulk-${unique()}.example`;
      await addDomain(host);
      const make = (name: string) =>
        createLinkVia(h, { destination: `https://example.com/${marker}/${name}`, tags: [marker] });
      const one = await make('one');
      const two = await make('two');
      const three = await make('three');
      const links = [one, two, three];
      const elsewhere = await createLinkVia(h, {
        destination: `https://example.com/${marker}/elsewhere`,
        tags: [marker],
        domain: host,
      });
      const page = await adminPage(`#/links?tag=${marker}`);
      const row = (code: string) => page.locator(`table.links tr[data-code="${code}"]`);
      await row(one.code).waitFor();
      await row(elsewhere.code).waitFor();
      assert.equal(await row(elsewhere.code).locator('.domain').textContent(), host);
      assert.equal(
        await row(one.code).locator('.domain').textContent(),
        new URL(h.hop.url).hostname,
      );

      // The domain filter.
      await page.getByLabel('Domain').selectOption(host);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/domain=/);
      await row(one.code).waitFor({ state: 'detached' });
      await row(elsewhere.code).waitFor();
      assert.equal(await page.locator('table.links tbody tr[data-code]').count(), 1);
      await page.getByLabel('Domain').selectOption('');
      await page.getByRole('button', { name: 'Search' }).click();
      await row(one.code).waitFor();

      // Tick three; add a tag to them.
      const states = async () =>
        Promise.all(
          links.map(
            async (link) =>
              (await callApi(h, 'GET', `/v1/links/${link.id}`)).json as {
                state: string;
                tags: string[];
              },
          ),
        );
      for (const link of links) await page.getByLabel(`Select ${link.code}`).check();
      await page.getByTestId('bulk-actions').getByText('3 links selected').waitFor();
      await page.getByLabel('Tag to add').fill(`${marker}-x`);
      await page.getByRole('button', { name: 'Add tag' }).click();
      await page.getByTestId('links-status').getByText(`Tagged ${marker}-x: 3 links.`).waitFor();
      for (const link of await states()) assert.deepEqual(link.tags, [marker, `${marker}-x`]);

      // Still ticked: disable them; one was deleted meanwhile, and its failure is listed.
      assert.equal((await callApi(h, 'DELETE', `/v1/links/${three.id}`)).status, 204);
      await page.getByRole('button', { name: 'Disable selected' }).click();
      await page
        .getByTestId('links-status')
        .getByText('Disabled 2 links; 1 link could not be disabled:')
        .waitFor();
      const failures = page.getByTestId('bulk-failures');
      assert.match(await failures.innerText(), new RegExp(`^${three.code}: .+`));
      await row(one.code).locator('.state', { hasText: 'disabled' }).waitFor();
      await page.screenshot({ path: join(h.screenshots, 'links-bulk.png'), fullPage: true });
      assert.deepEqual((await states()).map((link) => link.state).slice(0, 2), [
        'disabled',
        'disabled',
      ]);

      // Select every link on the page, enable, then delete (asked twice).
      await page.getByLabel('Select every link on this page').check();
      await page.getByTestId('bulk-actions').getByText('3 links selected').waitFor();
      await page.getByLabel(`Select ${elsewhere.code}`).uncheck();
      await page.getByRole('button', { name: 'Enable selected' }).click();
      await page.getByTestId('links-status').getByText('Enabled 2 links.').waitFor();
      await row(two.code).locator('.state', { hasText: 'active' }).waitFor();
      // Still ticked after a change: delete them next.
      await page.getByTestId('bulk-actions').getByText('2 links selected').waitFor();
      await page.getByRole('button', { name: 'Delete selected' }).click();
      await page.getByRole('button', { name: 'Delete 2 links for good' }).click();
      await page.getByTestId('links-status').getByText('Deleted 2 links.').waitFor();
      for (const link of [one, two]) {
        assert.equal((await callApi(h, 'GET', `/v1/links/${link.id}`)).status, 404);
      }
      assert.equal(await page.getByTestId('bulk-actions').count(), 0, 'nothing left ticked');
      await page.context().close();
    });
    test('tags: links and clicks per tag, searched; each leads to its links; a bad name refused under it; renamed onto another (merged); deleted from every link', async () => {
      const { marker, alpha, beta, three } = tagged;
      // Up to one fold interval (15 s) after the click, less the other cases' time.
      for (let i = 0; i < 600; i++) {
        const tags = (await callApi(h, 'GET', `/v1/tags?search=${alpha}`)).json as {
          tags: { name: string; clicks: number }[];
        };
        if (tags.tags.find((tag) => tag.name === alpha)?.clicks === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const page = await adminPage('#/tags');
      await page.getByRole('heading', { name: 'Tags' }).waitFor();
      await page.getByLabel('Search tags').fill(marker);
      await page.getByRole('button', { name: 'Search' }).click();
      const cells = (name: string) =>
        page
          .locator(`tr[data-tag="${name}"] td.num`)
          .evaluateAll((tds) => tds.map((td) => td.textContent));
      const tagNames = () =>
        page
          .locator('table.tags-table tbody tr[data-tag]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tag')));
      await until(tagNames, [alpha, beta]);
      assert.deepEqual(await cells(alpha), ['2', '1']);
      assert.deepEqual(await cells(beta), ['2', '0']);
      await page.screenshot({ path: join(h.screenshots, 'tags.png'), fullPage: true });

      // A name the API refuses: its rule under the input.
      await page.getByRole('button', { name: `Rename ${beta}` }).click();
      const input = page.getByLabel(`New name for ${beta}`);
      await input.fill('no spaces allowed');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const inputId = (await input.getAttribute('id')) ?? '';
      await assertFieldErrorOnce(page, inputId, /.+/);
      // Renamed onto alpha: the two merge, three links.
      await input.fill(alpha);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page
        .getByTestId('tags-status')
        .getByText(`Merged ${beta} into ${alpha}: 3 links.`)
        .waitFor();
      await until(tagNames, [alpha]);
      await until(() => cells(alpha), ['3', '1']);

      // The tag leads to its links.
      await page.getByRole('link', { name: alpha }).click();
      await page.locator(`tr[data-code="${three.code}"]`).waitFor();
      assert.equal(await page.locator('table.links tbody tr[data-code]').count(), 3);

      await page.goto(`${h.hop.url}/admin#/tags?search=${marker}`);
      await page.getByRole('button', { name: `Delete ${alpha}` }).click();
      await page.getByRole('button', { name: `Remove ${alpha} from 3 links` }).click();
      await page
        .getByTestId('tags-status')
        .getByText(`Deleted the tag ${alpha} from 3 links.`)
        .waitFor();
      await page.locator('td.empty', { hasText: 'No tags match' }).waitFor();
      const untagged = (await callApi(h, 'GET', `/v1/links/${three.id}`)).json as {
        tags: string[];
      };
      assert.deepEqual(untagged.tags, []);
      await page.context().close();
    });
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { E2E_ADMIN_KEY } from '../support/click-counts.js';
import { eventually } from '../support/eventually.js';
import { startHop, stopHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';
import { DESKTOP } from '../support/user-agents.js';

/**
 * Issue 21 on real `hop serve` processes: two of them on one SQLite data dir draw from one
 * exact click budget (ADR 0111: across processes, not only across connections), and a
 * password link's pass made by one opens the link on the other (one console secret).
 */

const DESTINATION = 'https://example.com/drop';
const FALLBACK = 'https://example.com/sold-out';
const PASSWORD = 'open sesame';

async function createLink(base: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}/v1/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${E2E_ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { id: string; code: string };
  assert.equal(response.status, 201, JSON.stringify(json));
  return json;
}

async function visit(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const response = await fetch(`${base}/${path}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': DESKTOP, ...headers },
  });
  await response.arrayBuffer();
  return response;
}

describe('smart links on two hop processes sharing one SQLite data dir', () => {
  test('one exact max_clicks across both; a pass from one opens the link on the other', async (t) => {
    const env = {
      HOP_DATA_DIR: tempDataDir(t, 'hop-smart-'),
      HOP_BOOTSTRAP_ADMIN_KEY: E2E_ADMIN_KEY,
    };
    const a = await startHop(env);
    t.after(() => a.child.kill('SIGKILL'));
    const b = await startHop(env);
    t.after(() => b.child.kill('SIGKILL'));

    const limited = await createLink(a.url, {
      destination: DESTINATION,
      max_clicks: 10,
      fallback_url: FALLBACK,
    });
    // B learns of A's new link through the embedded store's change feed; HEAD takes nothing.
    await eventually(
      async () => (await visit(b.url, limited.code, {}, 'HEAD')).status === 302,
      'the link reaching B',
    );
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const response = await visit(index % 2 === 0 ? a.url : b.url, limited.code);
        return `${response.status} ${response.headers.get('location')}`;
      }),
    );
    const served = answers.filter((answer) => answer === `302 ${DESTINATION}`).length;
    const fellBack = answers.filter((answer) => answer === `302 ${FALLBACK}`).length;
    assert.deepEqual({ served, fellBack }, { served: 10, fellBack: 40 }, answers.join('\n'));

    const locked = await createLink(b.url, { destination: DESTINATION, password: PASSWORD });
    await eventually(
      async () => (await visit(a.url, locked.code, {}, 'HEAD')).status === 200,
      'the password link reaching A',
    );
    const form = await visit(a.url, locked.code, { accept: 'text/html' });
    assert.equal(form.status, 200);
    const posted = await fetch(`${a.url}/${locked.code}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': DESKTOP },
      body: `password=${encodeURIComponent(PASSWORD)}`,
    });
    await posted.arrayBuffer();
    assert.equal(posted.status, 302);
    const setCookie = posted.headers.getSetCookie()[0] ?? '';
    const pass = setCookie.slice(0, setCookie.indexOf(';'));
    assert.match(pass, new RegExp(`^hop_pass_${locked.id}=`));
    const onB = await visit(b.url, locked.code, { cookie: pass });
    assert.equal(onB.status, 302);
    assert.equal(onB.headers.get('location'), DESTINATION);

    await stopHop(a);
    await stopHop(b);
  });
});

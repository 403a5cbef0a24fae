import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startHop, stopHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';

const ADMIN_KEY = 'hop_never_logged_admin_key_0123456789';
const WRONG_KEY = 'hop_never_logged_wrong_key_9876543210';
const QUERY_SECRET = 'never_logged_query_value_42';

test('keys and destination query strings never reach the log, even at trace level', async () => {
  const hop = await startHop({
    HOP_DATA_DIR: tempDataDir({ after }),
    HOP_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
    HOP_LOG_LEVEL: 'trace',
  });
  const issuedKeys: string[] = [];
  try {
    const call = (method: string, path: string, key: string | null, body?: string) =>
      fetch(`${hop.url}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body ?? null,
      });
    const destination = `https://example.com/landing?token=${QUERY_SECRET}&utm=mail`;
    const created = await call('POST', '/v1/links', ADMIN_KEY, JSON.stringify({ destination }));
    assert.equal(created.status, 201);
    const link = (await created.json()) as { id: string; code: string };
    assert.equal((await call('GET', `/${link.code}`, null)).status, 302);
    const edited = await call(
      'PATCH',
      `/v1/links/${link.id}`,
      ADMIN_KEY,
      JSON.stringify({ destination: `${destination}&v=2` }),
    );
    assert.equal(edited.status, 200);
    const key = await call('POST', '/v1/keys', ADMIN_KEY, JSON.stringify({ owner: 'someone' }));
    const issued = ((await key.json()) as { key: string }).key;
    issuedKeys.push(issued);
    // The ways a key or a query string could slip into a log line: refusals, bad bodies,
    // a bad key, a console sign-in with the key in its body, a bad destination.
    assert.equal((await call('GET', '/v1/links', WRONG_KEY)).status, 401);
    assert.equal(
      (await call('POST', '/v1/links', issued, `{"destination": "${destination}`)).status,
      400,
    );
    assert.equal(
      (
        await call(
          'POST',
          '/v1/links',
          issued,
          JSON.stringify({ destination: `ftp://x.example/?t=${QUERY_SECRET}` }),
        )
      ).status,
      422,
    );
    assert.equal(
      (await call('POST', '/admin/session', null, JSON.stringify({ key: ADMIN_KEY }))).status,
      200,
    );
    assert.equal(
      (await call('POST', '/admin/session', null, JSON.stringify({ key: WRONG_KEY }))).status,
      401,
    );
  } finally {
    await stopHop(hop);
  }
  const output = hop.output();
  assert.ok(output.includes('hop listening'), 'the log was captured');
  for (const secret of [ADMIN_KEY, WRONG_KEY, ...issuedKeys, QUERY_SECRET]) {
    assert.equal(output.includes(secret), false, `${secret} was logged:\n${output}`);
  }
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkWebhookUrl, isPublicAddress } from '../../src/domain/webhook-url-policy.js';
import {
  afterFailedAttempt,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
} from '../../src/domain/webhook-retry.js';
import type { ClickEventRecord } from '../../src/ports/event-log.js';
import { clickedEventData } from '../../src/services/webhooks/clicked-event-data.js';
import { signWebhook } from '../../src/services/webhooks/sign-webhook.js';

describe('webhooks (issue 23)', () => {
  test("signatures match the Standard Webhooks specification's example", () => {
    assert.equal(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  test('link.clicked data: the count and the dimensions of one link and second', () => {
    const record: ClickEventRecord = {
      position: '12',
      linkId: '01J0000000000000000000000A',
      second: Date.parse('2026-06-01T12:00:05Z'),
      clicks: 3,
      botClicks: 1,
      countries: { DE: 2 },
      devices: { desktop: 3 },
      browsers: { chrome: 3 },
      oses: { windows: 3 },
      referrers: { 'news.example': 1 },
      languages: { de: 2 },
      recordedAt: Date.parse('2026-06-01T12:00:07Z'),
    };
    assert.deepEqual(clickedEventData(record), {
      link_id: '01J0000000000000000000000A',
      second: '2026-06-01T12:00:05.000Z',
      clicks: {
        count: 3,
        bot_count: 1,
        countries: { DE: 2 },
        devices: { desktop: 3 },
        browsers: { chrome: 3 },
        operating_systems: { windows: 3 },
        referrers: { 'news.example': 1 },
        languages: { de: 2 },
      },
    });
  });

  test('retries back off exponentially with jitter, at most an hour, never past giving up', () => {
    assert.equal(retryDelayMs(1, 1000, 0), 500);
    assert.equal(retryDelayMs(1, 1000, 0.999999), 1000);
    assert.equal(retryDelayMs(4, 1000, 0.999999), 8000);
    assert.equal(retryDelayMs(60, 1000, 0), MAX_RETRY_DELAY_MS / 2);
    assert.ok(retryDelayMs(60, 1000, 0.999999) <= MAX_RETRY_DELAY_MS);
    assert.deepEqual(afterFailedAttempt(1, 100, 1000, 400, 0.999999), {
      status: 'pending',
      nextAttemptAt: 500,
    });
    assert.deepEqual(afterFailedAttempt(5, 900, 1000, 400, 0.5), {
      status: 'pending',
      nextAttemptAt: 1000,
    });
    assert.deepEqual(afterFailedAttempt(6, 1000, 1000, 400, 0.5), {
      status: 'failed',
      nextAttemptAt: 1000,
    });
  });

  test('webhook URLs: destinations rules; private hosts only with the switch', () => {
    const strict = { allowPrivate: false };
    const open = { allowPrivate: true };
    assert.deepEqual(checkWebhookUrl('https://hooks.example.com/x', strict), {
      ok: true,
      url: 'https://hooks.example.com/x',
    });
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://[fe80::1]/',
      'http://localhost/',
      'http://10.0.0.1/',
    ]) {
      assert.equal(checkWebhookUrl(url, strict).ok, false, url);
      assert.equal(checkWebhookUrl(url, open).ok, true, url);
    }
    for (const url of [
      'ftp://example.com/',
      'https://u:p@example.com/',
      'http://127.0.0.1 /x',
      '',
    ]) {
      assert.equal(checkWebhookUrl(url, open).ok, false, url);
    }
    assert.equal(isPublicAddress('93.184.216.34'), true);
    assert.equal(isPublicAddress('2606:2800:220:1::'), true);
    for (const address of [
      '127.0.0.1',
      '10.1.1.1',
      '169.254.169.254',
      '::1',
      '::ffff:192.168.0.1',
      'fd00::1',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });
});

// The full-size run of test/e2e/clicks-nats.test.ts: 20,000 clicks counted exactly through NATS JetStream.
process.env['TEST_SCALE'] = 'full';
await import('../e2e/clicks-nats.test.js');

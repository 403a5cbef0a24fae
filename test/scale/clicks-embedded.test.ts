// The full-size run of test/e2e/clicks-embedded.test.ts: 20,000 clicks counted exactly, embedded.
process.env['TEST_SCALE'] = 'full';
await import('../e2e/clicks-embedded.test.js');

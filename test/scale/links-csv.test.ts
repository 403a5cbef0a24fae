// The full-size run of test/e2e/links-csv.test.ts: a 100,000-row import, export and re-import round trip.
process.env['TEST_SCALE'] = 'full';
await import('../e2e/links-csv.test.js');

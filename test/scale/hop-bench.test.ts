// The full-size run of test/e2e/hop-bench.test.ts: hop bench loading a hop with 50 connections.
process.env['TEST_SCALE'] = 'full';
await import('../e2e/hop-bench.test.js');

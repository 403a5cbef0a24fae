// The full-size run of test/unit/code-strategies.test.ts: a million codes per strategy.
process.env['TEST_SCALE'] = 'full';
await import('../unit/code-strategies.test.js');

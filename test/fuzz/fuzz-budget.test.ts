import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FUZZ_BUDGET, MIN_TOTAL_INPUTS, totalBudget } from './fuzz-budget.js';

/**
 * ADR 0088: at least 100,000 generated inputs in every CI run, all fuzz files together.
 * Each file's last test checks that its properties were handed their share; this one
 * checks that the shares add up.
 */
test(`the fuzz properties together get at least ${MIN_TOTAL_INPUTS} inputs`, (t) => {
  for (const [file, properties] of Object.entries(FUZZ_BUDGET)) {
    const inputs = Object.values(properties as Record<string, number>).reduce((a, b) => a + b, 0);
    t.diagnostic(`${inputs} inputs: ${file}`);
  }
  t.diagnostic(`${totalBudget()} inputs in all`);
  assert.ok(totalBudget() >= MIN_TOTAL_INPUTS, `only ${totalBudget()} inputs budgeted`);
});

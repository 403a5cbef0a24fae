/**
 * TurboFan's inlining budgets for `hop serve`, raised from V8's defaults (460, 920 and 4600
 * bytes of bytecode): a redirect runs node:http's request handling, the front, L1, the
 * click and the latency histogram as one chain of calls, longer than the default budgets
 * let TurboFan compile into one function. Paired against the defaults these served more
 * redirects, and twice them no more (ADR 0154). V8's flags are the process's: every
 * thread's isolate compiles with them.
 */
export const REDIRECT_INLINING_FLAGS: readonly string[] = [
  '--max-inlined-bytecode-size=920',
  '--max-inlined-bytecode-size-cumulative=5520',
  '--max-inlined-bytecode-size-absolute=9200',
];

/**
 * The flags `hop serve` sets at start: none when the operator's command line names any of
 * the three budgets (`node --max-inlined-bytecode-size…=N dist/cli/hop.js serve`), which
 * then stand as given, V8's defaults for the others.
 */
export function inliningFlagsFor(execArgv: readonly string[]): readonly string[] {
  return execArgv.some((flag) => /max[-_]inlined[-_]bytecode[-_]size/.test(flag))
    ? []
    : REDIRECT_INLINING_FLAGS;
}

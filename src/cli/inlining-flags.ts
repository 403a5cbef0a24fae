/**
 * TurboFan's inlining budgets for `hop serve`, raised from V8's defaults (460 bytes of
 * bytecode for one call, 920 in all): a redirect runs node:http's request handling, the
 * front, L1, the click and the latency histogram as one chain of calls, longer than the
 * default budgets let TurboFan compile into one function. The absolute bound on one
 * compile (4600) stays V8's: doubled with these and a cumulative six times the default,
 * redirects were faster still but creates beside them lengthened the redirects' p99 1.5
 * to 2.8 times (ADR 0154). V8's flags are the process's: every thread's isolate compiles
 * with them.
 */
export const REDIRECT_INLINING_FLAGS: readonly string[] = [
  '--max-inlined-bytecode-size=920',
  '--max-inlined-bytecode-size-cumulative=2760',
];

/**
 * The flags `hop serve` sets at start: none when the operator's command line names any of
 * V8's three budgets, these two or the absolute one (`node --max-inlined-bytecode-size…=N
 * dist/cli/hop.js serve`), which then stand as given, V8's defaults for the others.
 */
export function inliningFlagsFor(execArgv: readonly string[]): readonly string[] {
  return execArgv.some((flag) => /max[-_]inlined[-_]bytecode[-_]size/.test(flag))
    ? []
    : REDIRECT_INLINING_FLAGS;
}

/**
 * V8 flags that `hop serve` sets at its start, each one an operator can set instead: a
 * setting whose flag the command line already names (`node --<flag>=N dist/cli/hop.js
 * serve`) is left as given.
 */
interface ServeV8Setting {
  /** Matches a command-line flag that names this setting, in either spelling. */
  readonly named: RegExp;
  readonly flags: readonly string[];
}

/**
 * V8 lets the old generation grow well past what is live before a full collection. L1
 * turns over all the time when requests miss (every fill replaces an entry that already
 * aged into the old generation), so the heap would sit far above its live size: with 10M
 * links and a full L1, hop was 340 to 434 MB resident by default and 292 to 296 MB with
 * 30% growth, for about 7% fewer requests a second (measured on this machine; see
 * ADR 0028).
 */
const HEAP_GROWTH: ServeV8Setting = {
  named: /heap[-_]growing[-_]percent/,
  flags: ['--heap-growing-percent=30'],
};

/**
 * TurboFan's inlining budgets, raised from V8's defaults (460 bytes of bytecode for one
 * call, 920 in all): a redirect runs node:http's request handling, the front, L1, the
 * click and the latency histogram as one chain of calls, longer than the default budgets
 * let TurboFan compile into one function. The absolute bound on one compile (4600) stays
 * V8's: doubled with these and a cumulative six times the default, redirects were faster
 * still but creates beside them lengthened the redirects' p99 1.5 to 2.8 times (ADR 0154).
 * V8's flags are the process's: every thread's isolate compiles with them.
 */
export const REDIRECT_INLINING_FLAGS: readonly string[] = [
  '--max-inlined-bytecode-size=920',
  '--max-inlined-bytecode-size-cumulative=2760',
];

/** Named by any of V8's three budgets: these two or the absolute one. */
const INLINING: ServeV8Setting = {
  named: /max[-_]inlined[-_]bytecode[-_]size/,
  flags: REDIRECT_INLINING_FLAGS,
};

function unlessGiven(setting: ServeV8Setting, execArgv: readonly string[]): readonly string[] {
  return execArgv.some((flag) => setting.named.test(flag)) ? [] : setting.flags;
}

/** The inlining budgets `hop serve` sets: none when the command line names any budget. */
export function inliningFlagsFor(execArgv: readonly string[]): readonly string[] {
  return unlessGiven(INLINING, execArgv);
}

/** Every flag `hop serve` sets at start, for `v8.setFlagsFromString`. */
export function serveV8FlagsFor(execArgv: readonly string[]): readonly string[] {
  return [HEAP_GROWTH, INLINING].flatMap((setting) => unlessGiven(setting, execArgv));
}

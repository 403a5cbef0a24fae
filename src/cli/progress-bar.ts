import { MultiBar } from 'cli-progress';

/** Progress of long work, drawn on stderr when it is a terminal; lines are logged above it. */
export interface ProgressBar {
  update(value: number, payload?: Readonly<Record<string, number>>): void;
  /** Writes one line to stderr without tearing the bar. */
  log(line: string): void;
  stop(): void;
}

/**
 * A bar of `total` on stderr, or, when stderr is not a terminal (a log file, a test), no
 * bar at all and plain lines, so redirected output holds no redraws.
 */
export function startProgressBar(
  total: number,
  format: string,
  payload: Readonly<Record<string, number>>,
): ProgressBar {
  if (!process.stderr.isTTY) {
    return {
      update: () => undefined,
      log: (line) => process.stderr.write(`${line}\n`),
      stop: () => undefined,
    };
  }
  const bars = new MultiBar({
    stream: process.stderr,
    format,
    hideCursor: true,
    clearOnComplete: true,
  });
  const bar = bars.create(total, 0, payload);
  return {
    update: (value, more) => {
      bar.update(value, more);
    },
    log: (line) => {
      bars.log(`${line}\n`);
    },
    stop: () => {
      // A redraw first: lines logged since the last one are only written by a redraw.
      bars.update();
      bars.stop();
    },
  };
}

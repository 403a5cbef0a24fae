import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  generatePoolFile,
  PoolFileRefused,
  type PoolFileSummary,
} from '../../main/generate-pool-file.js';
import { withRuntime } from '../with-runtime.js';

/** `--length` bounds: the same as HOP_CODE_LENGTH's. */
const MIN_LENGTH = 4;
const MAX_LENGTH = 32;
/** Exit code of a command stopped by Ctrl-C (128 + SIGINT). */
const EXIT_INTERRUPTED = 130;

export function addPoolCommand(program: Command): void {
  const pool = program
    .command('pool')
    .description('manage the code pool of the pool strategy (HOP_CODE_STRATEGY=pool)');

  pool
    .command('generate')
    .description('write a new pool file of random, unused codes')
    .addOption(
      new Option('--count <n>', 'how many codes, 1 to 1000000000')
        .argParser(parseCount)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--length <n>',
        `characters per code, ${MIN_LENGTH}-${MAX_LENGTH} (default: HOP_CODE_LENGTH)`,
      ).argParser(parseLength),
    )
    .option('--file <path>', 'pool file to write (default: HOP_POOL_FILE, <data dir>/pool.codes)')
    .option('--force', 'replace an existing pool file', false)
    .addHelpText(
      'after',
      `
Codes are drawn from a CSPRNG in the HOP_CODE_ALPHABET alphabet. None is written twice,
none is a code the store already holds (custom aliases included) and none is a reserved
word. The file is a 64-byte header (width and a new random pool id) followed by the codes,
fixed width, with no separators. It is written to <file>.tmp and renamed into place when
complete, so a server never reads half a pool. An existing pool file is kept unless
--force is given: servers keep an offset into it, and a replaced pool (new id) is taken
from its first code again.

Examples:
  $ hop pool generate --count 1000000
  $ hop pool generate --count 50000000 --length 8 --file /srv/hop/pool.codes --force`,
    )
    .action(async (options: { count: number; length?: number; file?: string; force: boolean }) => {
      await withRuntime(
        async (runtime) => {
          const { config } = runtime;
          const started = performance.now();
          const abort = new AbortController();
          const onInterrupt = () => {
            abort.abort();
          };
          process.once('SIGINT', onInterrupt);
          const bar = process.stderr.isTTY
            ? new SingleBar({
                stream: process.stderr,
                format: 'pool [{bar}] {percentage}% | {value}/{total} codes | ETA {eta_formatted}',
                hideCursor: true,
                clearOnComplete: true,
              })
            : null;
          let barStarted = false;
          let summary: PoolFileSummary;
          try {
            summary = await generatePoolFile(runtime.store.codeScan, {
              file: options.file ?? config.poolFile,
              count: options.count,
              length: options.length ?? config.codeLength,
              alphabet: config.codeAlphabet,
              force: options.force,
              signal: abort.signal,
              onProgress: (progress) => {
                if (bar === null || progress.phase !== 'codes') return;
                if (!barStarted) bar.start(options.count, 0);
                barStarted = true;
                bar.update(progress.written);
              },
            });
          } catch (error) {
            if (error instanceof PoolFileRefused) {
              process.stderr.write(`hop: ${error.message}\n`);
              process.exitCode = 1;
              return;
            }
            if (abort.signal.aborted) {
              process.stderr.write('hop: interrupted; no pool file was written\n');
              process.exitCode = EXIT_INTERRUPTED;
              return;
            }
            throw error;
          } finally {
            bar?.stop();
            process.off('SIGINT', onInterrupt);
          }
          const seconds = (performance.now() - started) / 1000;
          // resourceUsage().maxRSS is in kilobytes.
          const peakMb = process.resourceUsage().maxRSS / 1024;
          process.stdout.write(
            `hop: wrote ${summary.written} codes of ${summary.width} characters to ` +
              `${summary.file} (pool ${summary.id}): ${summary.bytes} bytes in ` +
              `${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB\n` +
              `hop: excluded the store's ${summary.storeCodes} codes; skipped ` +
              `${summary.skippedTaken} taken and ${summary.skippedReserved} reserved draws\n`,
          );
        },
        { createsDatabase: true },
      );
    });
}

function parseCount(value: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new InvalidArgumentError('It must be a positive whole number, such as 1000000.');
  }
  return count;
}

function parseLength(value: string): number {
  const length = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(length >= MIN_LENGTH && length <= MAX_LENGTH)) {
    throw new InvalidArgumentError(
      `It must be a whole number from ${MIN_LENGTH} to ${MAX_LENGTH}.`,
    );
  }
  return length;
}

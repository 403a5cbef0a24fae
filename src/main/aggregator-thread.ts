import { Worker } from 'node:worker_threads';

export interface AggregatorThreadOptions {
  readonly databaseFile: string;
  readonly maxReferrers: number;
  /** Queue rows (flushed batches) merged into one fold at most. */
  readonly rowsPerFold: number;
  /** The pause after a fold that emptied the queue: clicks gather, and fold together. */
  readonly foldIntervalMs: number;
  readonly reportIntervalMs: number;
}

export type AggregatorThreadReport =
  | {
      readonly kind: 'progress';
      readonly folded: number;
      readonly duplicates: number;
      readonly lagSeconds: number;
    }
  | { readonly kind: 'failed'; readonly reason: string };

/** The aggregator as `hop serve` sees it: its counters, and a way to stop it. */
export interface AggregatorThread {
  readonly folded: number;
  readonly duplicates: number;
  readonly lagSeconds: number;
  /** Finishes the fold in progress, closes its connection, ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts the embedded aggregator in a worker thread. Under tsx (tests, `npm start`) the
 * thread loads the TypeScript entry through tsx's API, since a worker does not inherit the
 * loader; compiled, it loads the JavaScript beside this file.
 */
export function startAggregatorThread(
  options: AggregatorThreadOptions,
  onFailure: (reason: string) => void,
): AggregatorThread {
  const entry = new URL(
    import.meta.url.endsWith('.ts')
      ? './aggregator-thread-entry.ts'
      : './aggregator-thread-entry.js',
    import.meta.url,
  );
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}));`,
        { eval: true, workerData: options },
      )
    : new Worker(entry, { workerData: options });
  const state = { folded: 0, duplicates: 0, lagSeconds: 0 };
  let failing = false;
  worker.on('message', (message: AggregatorThreadReport) => {
    if (message.kind === 'progress') {
      state.folded = message.folded;
      state.duplicates = message.duplicates;
      state.lagSeconds = message.lagSeconds;
      failing = false;
    } else if (!failing) {
      failing = true;
      onFailure(message.reason);
    }
  });
  worker.on('error', (error: unknown) => {
    onFailure(error instanceof Error ? error.message : String(error));
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      resolve();
    }),
  );
  worker.unref();
  return {
    get folded() {
      return state.folded;
    },
    get duplicates() {
      return state.duplicates;
    },
    get lagSeconds() {
      return state.lagSeconds;
    },
    stop: () => {
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}

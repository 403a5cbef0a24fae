import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `entry` (its name without extension) that sits
 * beside the module `from` (that module's `import.meta.url`). Compiled, it loads the
 * JavaScript file. Under tsx (the tests' sources, `node --import tsx`), a worker does not
 * inherit the loader, so it loads the TypeScript entry through tsx's API.
 */
export function startEntryWorker(from: string, entry: string, options: WorkerOptions): Worker {
  const underTsx = from.endsWith('.ts');
  const url = new URL(`./${entry}.${underTsx ? 'ts' : 'js'}`, from);
  if (!underTsx) return new Worker(url, options);
  return new Worker(
    `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(from)}));`,
    { ...options, eval: true },
  );
}

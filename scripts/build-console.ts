/**
 * `npm run build:console`: bundles the admin console (Preact) into console/dist, which hop
 * serves at /admin. Run by `npm run build` (so by `npm test`, and by `npm start` when a
 * source changed); takes well under a second.
 *
 * Each file is written beside its place and renamed over it, and the folder is never
 * emptied: a hop starting while a build runs (npm start beside npm test) reads whole files,
 * the old ones or the new.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const here = new URL('../console/', import.meta.url);
const dist = new URL('dist/', here);
mkdirSync(dist, { recursive: true });

function place(name: string, contents: Uint8Array | string): void {
  const target = new URL(name, dist);
  const temporary = new URL(`.${name}.${process.pid}.tmp`, dist);
  writeFileSync(temporary, contents);
  renameSync(temporary, target);
}

const bundle = async (entry: string, options: Parameters<typeof build>[0]) => {
  const result = await build({
    entryPoints: [new URL(entry, here).pathname],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'warning',
    ...options,
  });
  const [output] = result.outputFiles ?? [];
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.contents;
};

place(
  'app.js',
  await bundle('src/main.tsx', {
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    outfile: 'app.js',
  }),
);
place('app.css', await bundle('src/app.css', { outfile: 'app.css' }));
place('index.html', readFileSync(new URL('src/index.html', here)));

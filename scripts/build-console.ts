/**
 * `npm run build:console`: bundles the admin console (Preact) into console/dist, which hop
 * serves at /admin. Run by `npm start`, `npm test` and `npm run build`; takes well under a
 * second, so a fresh checkout never serves a stale or missing console.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const here = new URL('../console/', import.meta.url);
const dist = new URL('dist/', here);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [new URL('src/main.tsx', here).pathname],
  outfile: new URL('app.js', dist).pathname,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
await build({
  entryPoints: [new URL('src/app.css', here).pathname],
  outfile: new URL('app.css', dist).pathname,
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
copyFileSync(new URL('src/index.html', here), new URL('index.html', dist));

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ConsoleAsset } from '../http/app-deps.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/**
 * The console's built files, read once at start: a handful of small files served from
 * memory need no static file server. Null when the folder is missing (not built).
 */
export function loadConsoleAssets(dir: URL): ReadonlyMap<string, ConsoleAsset> | null {
  if (!existsSync(dir)) return null;
  const assets = new Map<string, ConsoleAsset>();
  for (const file of readdirSync(dir)) {
    const contentType = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
    if (contentType === undefined) continue;
    const body = readFileSync(new URL(file, dir));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(file, { body, contentType, etag });
  }
  return assets.has('index.html') ? assets : null;
}

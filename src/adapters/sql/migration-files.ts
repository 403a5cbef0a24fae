import { readdirSync, readFileSync } from 'node:fs';

export interface MigrationFile {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** `0001_create_links.sql` → version 1. Files are applied in version order, once each. */
export function loadMigrationFiles(dir: URL): readonly MigrationFile[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, dir), 'utf8'),
    }));
}

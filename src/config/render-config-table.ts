import { ENV_SPEC } from './env-spec.js';

/** The README's configuration table, made from ENV_SPEC so the two never drift. */
export function renderConfigTable(): string {
  const rows = ENV_SPEC.map(
    (entry) =>
      `| \`${entry.name}\` | ${entry.default === undefined ? 'unset' : `\`${entry.default}\``} | ${entry.doc} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

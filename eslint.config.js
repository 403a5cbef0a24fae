import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Who may import whom (docs/ARCHITECTURE.md): one row per folder of src/, naming the
 * folders it may import besides itself (docs/ARCHITECTURE.md's table, as an allowlist); the arrows
 * point one way, down. A folder of src/ without a row fails the lint (below), so a new
 * one cannot slip in unchecked.
 */
const ALLOWED = {
  domain: [],
  /** Click formats on the wire and in the embedded queue, spoken by clicks/ and adapters. */
  wire: ['domain'],
  codes: ['domain', 'ports'],
  clicks: ['domain', 'ports', 'wire'],
  ports: ['domain'],
  services: ['domain', 'ports', 'codes', 'clicks'],
  /** Background jobs: plain functions over services and ports, run by src/jobs/job-scheduler.ts. */
  jobs: ['domain', 'ports', 'services', 'codes', 'clicks', 'observability'],
  /** Every adapter: ports, domain, wire, observability and its driver; never another adapter. */
  adapters: ['domain', 'ports', 'wire', 'observability'],
  http: ['services', 'domain'],
  cli: ['services', 'jobs', 'domain', 'main', 'config', 'observability'],
  config: [],
  observability: [],
  /** The composition root knows everything. */
  main: 'anything',
};
/** Folders that hold logic only: no driver, no file system, no framework. */
const PURE = ['domain', 'wire', 'codes', 'clicks', 'ports', 'services', 'jobs'];
/**
 * Adapter folders that hold what several adapters share, which any adapter may import, and
 * the only drivers each may use: the SQL stores' row mapping and migration files, node:fs;
 * starting a worker thread from its entry module, none.
 */
const SHARED_ADAPTER_CODE = { sql: ['node:fs'], threads: [] };
const DRIVERS = [
  'better-sqlite3',
  'lru-cache',
  'fastify',
  'node:fs',
  'ioredis',
  '@nats-io/*',
  'pg',
  'qrcode',
];

const foldersIn = (path) =>
  readdirSync(join(import.meta.dirname, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const APP = Object.keys(ALLOWED);
const unruled = foldersIn('src').filter((folder) => !APP.includes(folder));
if (unruled.length > 0) {
  throw new Error(
    `eslint.config.js: ${unruled.map((folder) => `src/${folder}`).join(', ')} has no row in ALLOWED: say what it may import.`,
  );
}
/** Every folder under src/adapters/ is an adapter, held to the rule as soon as it exists. */
const ADAPTERS = foldersIn('src/adapters');

const forbidden = (folder) =>
  ALLOWED[folder] === 'anything'
    ? []
    : APP.filter((other) => other !== folder && !ALLOWED[folder].includes(other)).map(
        (other) => `**/${other}/**`,
      );

const boundaries = [
  ...APP.filter((folder) => ALLOWED[folder] !== 'anything').map((folder) => ({
    folder: `src/${folder}`,
    forbid: [...forbidden(folder), ...(PURE.includes(folder) ? DRIVERS : [])],
  })),
  // Listed after src/adapters' own row, so that each adapter's rule is the one that applies.
  ...ADAPTERS.map((adapter) => {
    const shared = SHARED_ADAPTER_CODE[adapter];
    return {
      folder: `src/adapters/${adapter}`,
      forbid: [
        ...forbidden('adapters'),
        // No adapter imports another, except the code they share, which imports none.
        ...ADAPTERS.filter(
          (other) => other !== adapter && (shared !== undefined || !(other in SHARED_ADAPTER_CODE)),
        ).map((other) => `**/${other}/**`),
        ...(shared === undefined ? [] : DRIVERS.filter((driver) => !shared.includes(driver))),
      ],
    };
  }),
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'console/dist/**',
      // Transpiled beside their sources while npm test runs (scripts/run-tests.ts).
      '{src,test,scripts,bench,console/src}/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Adapters over synchronous drivers are async by contract (the port is Promise-based).
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' },
        { selector: 'TSEnumDeclaration', message: 'Use an `as const` object or a union.' },
        { selector: 'TSModuleDeclaration[kind="namespace"]', message: 'No namespaces.' },
      ],
    },
  },
  ...boundaries.map(({ folder, forbid }) => ({
    files: [`${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbid.map((group) => ({
            group: [group],
            message: `${folder} may not import this (see docs/ARCHITECTURE.md).`,
          })),
        },
      ],
    },
  })),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/cli/load-cli-config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config reads the environment.' },
      ],
    },
  },
  {
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Black-box tests read JSON off the wire, which is untyped by nature.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
    },
  },
);

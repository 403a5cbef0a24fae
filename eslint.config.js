import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Who may import whom (docs/ARCHITECTURE.md): the arrows point one way, down. */
const APP = [
  'domain',
  'codes',
  'clicks',
  'ports',
  'services',
  'jobs',
  'adapters',
  'http',
  'cli',
  'config',
  'observability',
  'main',
];
/** Folders each may import from (besides itself): the STYLE.md table, as an allowlist. */
const ALLOWED = {
  domain: [],
  codes: ['domain', 'ports'],
  clicks: ['domain', 'ports'],
  ports: ['domain'],
  services: ['domain', 'ports', 'codes', 'clicks'],
  // Background jobs: plain functions over services and ports, run by src/jobs/job-scheduler.ts.
  jobs: ['domain', 'ports', 'services', 'codes', 'clicks', 'observability'],
  http: ['services', 'domain'],
  cli: ['services', 'jobs', 'domain', 'main', 'config', 'observability'],
  config: [],
  observability: [],
};
const ADAPTERS = ['sqlite', 'postgres', 'memory', 'memory-cache', 'redis', 'nats', 'pool-file'];
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

const forbidden = (folder) =>
  APP.filter((other) => other !== folder && !ALLOWED[folder].includes(other)).map(
    (other) => `**/${other}/**`,
  );

const boundaries = [
  ...Object.keys(ALLOWED).map((folder) => ({
    folder: `src/${folder}`,
    forbid: [
      ...forbidden(folder),
      ...(['domain', 'codes', 'clicks', 'ports', 'services', 'jobs'].includes(folder)
        ? DRIVERS
        : []),
    ],
  })),
  // Adapters see ports, domain, their driver and observability; never services, http or each other.
  ...ADAPTERS.map((adapter) => ({
    folder: `src/adapters/${adapter}`,
    forbid: [
      ...['services', 'http', 'cli', 'main', 'config'].map((other) => `**/${other}/**`),
      ...ADAPTERS.filter((other) => other !== adapter).map((other) => `../${other}/**`),
    ],
  })),
  // What the SQL stores share (row mapping, migration files): no driver, no single adapter.
  {
    folder: 'src/adapters/sql',
    forbid: [
      ...['services', 'http', 'cli', 'main', 'config'].map((other) => `**/${other}/**`),
      ...ADAPTERS.map((other) => `../${other}/**`),
      ...DRIVERS.filter((driver) => driver !== 'node:fs'),
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'console/dist/**'] },
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

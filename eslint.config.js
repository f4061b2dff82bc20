// Lint enforces the house import directions (../shared/STYLE.md "Direction of imports"):
// a wrong import fails `npm test` instead of a review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const uiLibs = ['react', 'react-dom', 'react-dom/*', 'valtio', 'valtio/*', 'axios', '@tanstack/*', '@mantine/*', 'flexlayout-react', 'react-router-dom', '@sentry/*'];
const pixiOnlyInRender = { group: ['pixi.js', 'pixi.js/*'], message: 'pixi.js is imported only under src/engine/render.' };
const srcFolders = (names) => names.flatMap((n) => [`**/src/${n}`, `**/src/${n}/**`, `../${n}`, `../${n}/**`, `../../${n}`, `../../${n}/**`, `../../../${n}`, `../../../${n}/**`, `../../../../${n}/**`]);

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'server/drizzle/**', 'tests/bench/.out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [pixiOnlyInRender] }],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/render/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [], patterns: [
        { group: uiLibs, message: 'The engine is plain TypeScript: no React, valtio, axios, react-query or Mantine.' },
        { group: srcFolders(['state', 'api', 'panels', 'app', 'settings', 'admin', 'auth']), message: 'The engine imports nothing from the app.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['src/engine/render/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: uiLibs, message: 'The engine is plain TypeScript: no React, valtio, axios, react-query or Mantine.' },
        { group: srcFolders(['state', 'api', 'panels', 'app', 'settings', 'admin', 'auth']), message: 'The engine imports nothing from the app.' },
      ] }],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/api/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['react-dom', '@mantine/*', 'valtio', 'valtio/*', 'flexlayout-react'], message: 'api has no UI and no state.' },
        { group: srcFolders(['state', 'panels', 'app', 'settings', 'admin', 'auth', 'engine']), message: 'api has no UI and no state.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['src/api/contracts/**/*.ts'],
    ignores: ['src/api/contracts/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^(?!zod($|/)|\\./[^/]+$)', message: 'Contracts are pure zod, shared with the server.' },
      ] }],
    },
  },
  {
    files: ['src/state/**/*.ts', 'src/state/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['react-dom', '@mantine/*', 'flexlayout-react', 'axios'], message: 'state holds stores and actions, no UI.' },
        { group: srcFolders(['panels', 'app', 'settings', 'admin', 'auth']), message: 'state knows engine types and api only.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['src/panels/**/*.{ts,tsx}', 'src/auth/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: srcFolders(['app', 'settings', 'admin']), message: 'Nothing imports app; panels and auth do not import the routed areas.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['src/settings/**/*.{ts,tsx}', 'src/admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: srcFolders(['engine', 'panels', 'app']), message: 'settings and admin never import engine, panels or app.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: srcFolders(['app', 'auth', 'settings', 'admin', 'panels', 'engine', 'state']), message: 'ui holds shared presentational pieces; it imports only api and libraries.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)src/(?!api/contracts(/|$))', message: 'server imports from src only the shared contracts.' },
        { group: uiLibs.filter((l) => l !== 'axios' && l !== '@sentry/*'), message: 'No UI libraries on the server.' },
        pixiOnlyInRender,
      ] }],
    },
  },
  {
    // Money is exact in the trading paths (issue 22): decimal strings and the shared exact functions
    // (src/api/contracts/decimal.ts, risk.ts). A float may appear only at the engine's edge, through
    // the one named door `toNumber(dec(x))` (a chart coordinate, a bar width).
    files: [
      'src/panels/trading/**/*.{ts,tsx}',
      'src/panels/chart/trade-lines.ts',
      'src/api/contracts/risk.ts',
      'src/api/contracts/trading.ts',
      'src/api/contracts/funded-users.ts',
      'server/services/trading/**/*.ts',
      'server/services/trade-settings*.ts',
      'server/services/jobs/{bracket-guard,guarded-bracket,managed-brackets}.ts',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.name='Number']",
          "CallExpression[callee.name=/^parse(Float|Int)$/]",
          "CallExpression[callee.object.name='Number'][callee.property.name=/^parse(Float|Int)$/]",
          "CallExpression[callee.property.name='toFixed']",
          "UnaryExpression[operator='+']",
        ].map((selector) => ({
          selector,
          message: 'Money is exact here: use dec()/str() and the shared functions of src/api/contracts/risk.ts; a float only at the engine edge, as toNumber(dec(x)).',
        })),
      ],
    },
  },
);

// Lint enforces the house import directions (../shared/STYLE.md "Direction of imports"):
// a wrong import fails `npm test` instead of a review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

const uiLibs = ['react', 'react-dom', 'react-dom/*', 'valtio', 'valtio/*', 'axios', '@tanstack/*', '@mantine/*', 'flexlayout-react', 'react-router-dom', '@sentry/*'];
const pixiOnlyInRender = { group: ['pixi.js', 'pixi.js/*'], message: 'pixi.js is imported only under src/engine/render.' };
const srcFolders = (names) => names.flatMap((n) => [`**/src/${n}`, `**/src/${n}/**`, `../${n}`, `../${n}/**`, `../../${n}`, `../../${n}/**`, `../../../${n}`, `../../../${n}/**`, `../../../../${n}/**`]);

// ---------------------------------------------------------------------------------------------------
// Rooms (issue 23 §3): every folder with a README states what it "May import"; eslint-plugin-boundaries
// keeps it. `rooms` are the elements (first match wins, so a room comes before the room that holds it);
// `roomPolicies` are the README lines, in order — the last policy that matches an import decides, and an
// import no policy allows is refused. Imports inside one room are always free. tests/unit/boundaries-lint.test.ts
// proves the rules bite and that every README with a "May import" line has its room here.
const rooms = [
  // client (src/)
  { type: 'app', pattern: 'src/app' },
  { type: 'engine', pattern: 'src/engine' },
  { type: 'state', pattern: 'src/state' },
  { type: 'contracts', pattern: 'src/api/contracts' },
  { type: 'api-market', pattern: 'src/api/market' },
  { type: 'api', pattern: 'src/api' },
  { type: 'panels-shared', pattern: 'src/panels/shared' },
  { type: 'workstation', pattern: 'src/panels/workstation' },
  { type: 'panel', pattern: 'src/panels/*', capture: ['panel'] },
  { type: 'panels', pattern: 'src/panels' },
  { type: 'settings', pattern: 'src/settings' },
  { type: 'admin', pattern: 'src/admin' },
  { type: 'auth', pattern: 'src/auth' },
  { type: 'ui', pattern: 'src/ui' },
  // server/
  { type: 'server-boot', pattern: 'server/boot' },
  { type: 'server-db', pattern: 'server/db' },
  { type: 'server-exchanges', pattern: 'server/exchanges' },
  { type: 'server-lib', pattern: 'server/lib' },
  { type: 'server-plugins', pattern: 'server/plugins' },
  { type: 'server-routes', pattern: 'server/routes' },
  { type: 'server-compose', pattern: 'server/compose' },
  { type: 'services-jobs', pattern: 'server/services/jobs' },
  { type: 'services-scanner', pattern: 'server/services/scanner' },
  { type: 'services-trading', pattern: 'server/services/trading' },
  { type: 'services-events', pattern: 'server/services/events' },
  { type: 'services', pattern: 'server/services' },
  { type: 'sim-paper-engine', pattern: 'server/sim/paper/engine' },
  { type: 'sim-paper', pattern: 'server/sim/paper' },
  { type: 'sim-private', pattern: 'server/sim/private' },
  { type: 'sim', pattern: 'server/sim' },
  { type: 'server-test', pattern: 'server/test' },
  { type: 'server', pattern: 'server' },
  // tests/ and scripts/
  { type: 'tests-harness', pattern: 'tests/harness' },
  { type: 'tests-bench', pattern: 'tests/bench' },
  { type: 'tests', pattern: 'tests' },
  { type: 'scripts', pattern: 'scripts' },
].map((room) => ({ ...room, partialMatch: false }));

const CLIENT = ['app', 'engine', 'state', 'contracts', 'api-market', 'api', 'panels-shared', 'workstation', 'panel', 'panels', 'settings', 'admin', 'auth', 'ui'];
const SERVER = rooms.map((r) => r.type).filter((t) => t.startsWith('server') || t.startsWith('services') || t.startsWith('sim'));
const room = (...types) => ({ element: { type: types } });
const fileOf = (type, ...files) => ({ element: { type, fileInternalPath: files } });
const API = room('api', 'api-market', 'contracts'); // "api" in a client README: src/api with contracts/ and market/
const external = (...source) => ({ module: { origin: 'external', source } });
const core = (...source) => ({ module: { origin: 'core', ...(source.length ? { source } : {}) } });
const onlyTypes = { kind: 'type' };
const tests = (...types) => ({ ...room(...types), file: { categories: 'test' } });

const roomPolicies = [
  // Packages are free unless a room's README lists the only ones it may use (narrowed below).
  { allow: { to: { module: { origin: ['external', 'core'] } } } },

  // ---- client: ../shared/STYLE.md "Direction of imports" and each room's README
  // src/engine/README.md: pixi.js (only under render/), d3-scale, zod; nothing from the app.
  { from: room('engine'), disallow: { to: { module: { origin: 'external' } } } },
  { from: room('engine'), allow: { to: external('d3-scale', 'zod') } },
  { from: fileOf('engine', 'render/**'), allow: { to: external('pixi.js') } },
  // src/state/README.md: valtio/vanilla, zod, types/values from contracts, types from src/engine.
  { from: room('state'), disallow: { to: { module: { origin: 'external' } } } },
  { from: room('state'), allow: [{ to: { module: { origin: 'external', source: 'valtio', internalPath: 'vanilla' } } }, { to: external('zod') }, { to: room('contracts') }, { to: fileOf('engine', 'index.ts'), dependency: onlyTypes }] },
  // src/api/README.md: no UI, no state — its own contracts/ and market/ only.
  { from: room('api'), allow: { to: room('contracts', 'api-market') } },
  // src/api/contracts: pure zod, shared with the server.
  { from: room('contracts'), disallow: { to: { module: { origin: 'external' } } } },
  { from: room('contracts'), allow: { to: external('zod') } },
  // src/api/market/README.md: ../contracts (types), react-query, web platform APIs.
  { from: room('api-market'), allow: { to: room('contracts'), dependency: onlyTypes } },
  // …and the exchanges' wire parsers it shares with server/exchanges (src/api/contracts/wire/README.md).
  { from: room('api-market'), allow: { to: fileOf('contracts', 'wire/**') } },
  // src/ui/README.md: React, Mantine, react-router and api.
  { from: room('ui'), allow: { to: API } },
  // src/auth/README.md: api, state, ui.
  { from: room('auth'), allow: { to: [API, room('state', 'ui')] } },
  // src/settings/README.md: api, state, ui, auth.
  { from: room('settings'), allow: { to: [API, room('state', 'ui', 'auth')] } },
  // src/admin/README.md: api, state, ui and the settings/api-keys components.
  { from: room('admin'), allow: { to: [API, room('state', 'ui'), fileOf('settings', 'api-keys/**')] } },
  // src/panels/README.md: engine (through src/engine/index.ts), state, api, ui, shared/; panels never import
  // each other nor workstation/; only registry.ts (room "panels") imports the panel folders.
  { from: room('panel', 'panels-shared', 'workstation', 'panels'), allow: { to: [API, room('state', 'ui'), fileOf('engine', 'index.ts')] } },
  { from: room('panel', 'workstation', 'panels'), allow: { to: room('panels-shared') } },
  { from: room('workstation'), allow: { to: fileOf('panels', 'registry.ts') } },
  { from: room('panels'), allow: { to: room('panel', 'workstation') } },
  // src/panels/chart/README.md: engine types; its values only through the dynamic import in use-chart-engine.ts.
  {
    from: { element: { type: 'panel', captured: { panel: 'chart' } } },
    disallow: { to: room('engine'), dependency: { kind: 'value', nodeKind: '!dynamic-import' } },
  },
  // src/app/README.md: app may import anything of the client (and the engine demo the test harness); nothing imports
  // app: no policy allows it.
  { from: room('app'), allow: { to: room(...CLIENT, 'tests-harness') } },

  // ---- server: server/README.md — Node, the server packages, and from src/ only src/api/contracts
  { from: room('server', 'server-test'), allow: { to: room(...SERVER, 'contracts') } },
  // server/boot/README.md: node only.
  { from: room('server-boot'), disallow: { to: { module: { origin: 'external' } } } },
  // server/db/README.md: drizzle-orm, pglite, pg, contracts types. (The Config type of server/config.ts: db/client.ts.)
  { from: room('server-db'), allow: [{ to: room('contracts'), dependency: onlyTypes }, { to: fileOf('server', 'config.ts'), dependency: onlyTypes }] },
  // server/exchanges/README.md: node:*, src/api/contracts, zod (and the `ws` types of the private streams).
  { from: room('server-exchanges'), disallow: { to: { module: { origin: 'external' } } } },
  { from: room('server-exchanges'), allow: [{ to: room('contracts') }, { to: external('zod') }, { to: external('ws'), dependency: onlyTypes }] },
  // server/lib/README.md: node:crypto, zod, contracts.
  { from: room('server-lib'), disallow: { to: { module: { origin: ['external', 'core'] } } } },
  { from: room('server-lib'), allow: [{ to: room('contracts') }, { to: external('zod') }, { to: core('node:crypto', 'crypto') }] },
  // server/plugins/README.md: lib, db, exchanges, contracts.
  { from: room('server-plugins'), allow: { to: room('server-lib', 'server-db', 'server-exchanges', 'contracts') } },
  // server/routes/README.md: services, plugins, lib, contracts. Besides, what its own README describes:
  // the proxies' hosts (exchanges/endpoints.ts) and the Db, Config and FetchLike types routes pass on.
  { from: room('server-routes'), allow: { to: room('services', 'services-jobs', 'services-scanner', 'services-trading', 'services-events', 'server-plugins', 'server-lib', 'contracts') } },
  {
    from: room('server-routes'),
    allow: [
      { to: fileOf('server-exchanges', 'endpoints.ts') },
      { to: [fileOf('server-db', 'client.ts'), fileOf('server', 'config.ts'), fileOf('server-exchanges', 'transport.ts')], dependency: onlyTypes },
    ],
  },
  // server/compose/README.md: the composition root — every server room, and the contracts.
  { from: room('server-compose'), allow: { to: room(...SERVER, 'contracts') } },
  // server/services/README.md: db, lib, contracts, exchanges, sim (market services); not routes or plugins.
  // The services' own folders (jobs/, scanner/, trading/, events/) are services too.
  { from: room('services'), allow: { to: room('server-db', 'server-lib', 'contracts', 'server-exchanges', 'sim', 'sim-private', 'sim-paper', 'services-jobs', 'services-scanner', 'services-trading', 'services-events') } },
  // server/services/jobs/README.md: db, lib, contracts, exchanges, the other services; not routes.
  { from: room('services-jobs'), allow: { to: room('server-db', 'server-lib', 'contracts', 'server-exchanges', 'services', 'services-scanner', 'services-trading', 'services-events') } },
  // server/services/scanner/README.md: contracts, lib, exchanges (the registry), exchange-info (instrument lists, FetchLike), ws types; no database.
  { from: room('services-scanner'), allow: { to: [room('contracts', 'server-lib', 'server-exchanges'), fileOf('services', 'exchange-info.ts', 'exchange-info-parsers.ts')] } },
  // server/services/trading/README.md: db, lib, contracts, exchanges, the services' files beside it and the event bus;
  // not jobs, scanner, sim.
  { from: room('services-trading'), allow: { to: [room('server-db', 'server-lib', 'contracts', 'server-exchanges', 'services-events'), fileOf('services', '*.ts')] } },
  // server/services/events/README.md: db, lib, contracts; not routes, plugins or other services.
  { from: room('services-events'), allow: { to: room('server-db', 'server-lib', 'contracts') } },
  // server/sim/README.md: contracts, server/exchanges/endpoints.ts, server/db (client.ts, schema-paper.ts) for the
  // paper exchange, lib/tokens.ts (the control API's tokens and constant-time check); nothing from routes or services.
  // sim/private and sim/paper may what server/sim may (and each other: paper venues sign as private does).
  {
    from: room('sim', 'sim-private', 'sim-paper'),
    allow: { to: [room('contracts', 'sim', 'sim-private', 'sim-paper'), fileOf('server-exchanges', 'endpoints.ts'), fileOf('server-db', 'client.ts', 'schema-paper.ts'), fileOf('server-lib', 'tokens.ts')] },
  },
  { from: room('sim-paper'), allow: { to: room('sim-paper-engine') } },
  // server/sim/paper/README.md: the runtime hears the other instances' commits through db/listen.ts (LISTEN on either driver).
  { from: room('sim-paper'), allow: { to: fileOf('server-db', 'listen.ts') } },
  // server/sim/private/README.md: the key ring keeps minted secrets in db/schema-sim.ts, sealed with lib/server-seal.ts.
  { from: room('sim-private'), allow: { to: [fileOf('server-db', 'schema-sim.ts'), fileOf('server-lib', 'server-seal.ts')] } },
  // server/sim/paper/README.md: engine/ imports nothing outside itself (no fastify, no drizzle, no sim market).
  { from: room('sim-paper-engine'), disallow: { to: { module: { origin: 'external' } } } },

  // ---- tests and scripts
  // tests/harness/README.md: src/engine (and its internals, for test-chart.ts), nothing from the app.
  { from: room('tests-harness'), allow: { to: room('engine') } },
  // tests/bench/README.md: src/engine (its index only), lightweight-charts, tests/harness.
  { from: room('tests-bench'), allow: { to: [fileOf('engine', 'index.ts'), room('tests-harness')] } },
  { from: room('tests', 'scripts'), allow: { to: room('*') } },
  // Tests beside the code use their room's harnesses: packages (vitest, fast-check…); on the server any server room
  // (server/test, the simulator, schemas to seed); in the client any client room (a panel is tested inside the
  // workstation) and tests/harness; engine tests only tests/harness. The walls below still stand for tests.
  { from: { file: { categories: 'test' } }, allow: { to: { module: { origin: ['external', 'core'] } } } },
  { from: tests(...SERVER), allow: { to: room(...SERVER, 'contracts') } },
  { from: tests(...CLIENT.filter((t) => t !== 'engine')), allow: { to: room(...CLIENT.filter((t) => t !== 'app'), 'tests-harness') } },
  { from: tests('engine'), allow: { to: room('tests-harness') } },
  // src/api/market/README.md: its tests additionally use the simulator (server/sim) and the exchange hosts.
  { from: tests('api-market'), allow: { to: room('sim', 'server-exchanges') } },

  // ---- walls that hold for tests too
  {
    from: room('panel'),
    disallow: { to: room('panel') },
    message: 'Panels never import each other (src/panels/README.md): move what both need to src/panels/shared/, or go through a store in src/state.',
  },
  {
    from: room(...SERVER),
    disallow: { to: room(...CLIENT.filter((t) => t !== 'contracts')) },
    message: 'The server imports from src/ only the shared contracts, src/api/contracts (server/README.md).',
  },
];

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
      'src/panels/shared/trading/**/*.{ts,tsx}',
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
  {
    // The rooms of issue 23 §3 (see `rooms` and `roomPolicies` above).
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'tests/**/*.ts', 'scripts/**/*.mjs'],
    plugins: { boundaries },
    settings: {
      // Imports are extensionless TypeScript paths (no aliases): the node resolver with these extensions finds them.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } },
      'boundaries/root-path': import.meta.dirname,
      'boundaries/include': ['src/**', 'server/**', 'tests/**', 'scripts/**'],
      'boundaries/elements': rooms,
      'boundaries/files': [{ category: 'test', pattern: ['**/*.test.{ts,tsx}', '**/*.spec.ts'] }],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'disallow',
        checkAllOrigins: true,
        message: "'{{dependency.source}}' is not among what {{from.element.path}} may import (the \"May import\" line of its README, kept by eslint.config.js).",
        policies: roomPolicies,
      }],
    },
  },
);

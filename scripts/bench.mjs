// `npm run bench [-- --quick]`: the chart engine against lightweight-charts on identical seeded data,
// in the same headless Chromium run (SwiftShader WebGL2, CPU-rasterised 2D canvas, 1600×900, dpr 1 and 2).
// Writes tests/bench/results.md (and .out/results.json). Not a timed test: numbers depend on the machine.
//
//   --quick            one run, 100k and 1M bars (≈10 minutes on 2 cores)
//   --runs=N           runs per cell in full mode (default 3; medians are reported)
//   --sizes=1e4,1e5    bar counts;  --dpr=1,2  device pixel ratios;  --libs=engine,lwc
//   --port=8121        port of the static server (BENCH_PORT)
//   --app-port=N       port of the app server the four-charts and scanner scenarios start (BENCH_APP_PORT; default --port + 1)
//   --scenarios=a,b    run only these (session, first-frame, gpu, four-charts, scanner, order-flow, first-load); their sections replace those in results.md
//   --gpu-runs=N       runs of the gpu scenario (default 5, quick 3); each run visits every chart in turn
//   --dry-run          print and keep .out/results.json, leave results.md alone
//   --interleave       every scenario visits each cell once per run (default only for gpu), so load from
//                      other work on the machine spreads evenly over the charts compared
//   --before=REF       also measure the engine at git ref REF ("engine-before"; src/engine extracted with
//                      git archive into node_modules/.cache/bench-before) in the same run: gpu scenario,
//                      and session when --libs lists engine-before
//
// Scenarios are listed in SCENARIOS below; each names a function registered in tests/bench/bench-page.ts
// and knows how to report its results, so new ones (e.g. "four live panels") plug in beside `session`.
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { firstLoadScenario } from './bench-first-load.mjs';
import { orderFlowScenario } from './bench-order-flow.mjs';
import { FIRST_FRAME_SIZES, firstFrameReport, gpuReport, sessionReport } from './bench-report.mjs';
import { scannerScenario } from './bench-scanner.mjs';
import { fourChartsScenario, mergeResultSections } from './bench-workstation.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = path.join(ROOT, 'tests', 'bench');
const OUT = path.join(BENCH_DIR, '.out');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // The Canvas2D baseline is rasterised on the CPU, as on a machine without GPU raster.
  '--disable-accelerated-2d-canvas',
  // Heap numbers after a forced GC, not a sampled estimate.
  '--js-flags=--expose-gc',
  '--enable-precise-memory-info',
];

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const quick = args.quick === 'true';
const list = (v, fallback) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : fallback);
const mode = {
  quick,
  runs: quick ? 1 : Number(args.runs ?? 3),
  sizes: list(args.sizes, quick ? ['100000', '1000000'] : ['10000', '100000', '1000000']).map(Number),
  dprs: list(args.dpr, ['1', '2']).map(Number),
  libs: list(args.libs, ['lwc', 'engine']),
  port: Number(args.port ?? process.env.BENCH_PORT ?? 8121),
  // The four-charts scenario's app server: next to the static server, in the same engineer's port range.
  appPort: Number(args['app-port'] ?? process.env.BENCH_APP_PORT ?? Number(args.port ?? process.env.BENCH_PORT ?? 8121) + 1),
  scenarios: list(args.scenarios, null),
  gpuRuns: Number(args['gpu-runs'] ?? (quick ? 3 : 5)),
  dryRun: args['dry-run'] === 'true',
  before: args.before && args.before !== 'true' ? args.before : null,
};

/** name → page function, parameters per cell, and the report section it produces. */
const SCENARIOS = [
  {
    name: 'session',
    title: 'Load, memory, pan, zoom, live updates (one chart)',
    cells: () => mode.dprs.flatMap((dpr) => mode.sizes.flatMap((bars) => mode.libs.map((lib) => ({ dpr, bars, lib })))),
    params: ({ lib, bars }) => ({
      lib,
      bars,
      seed: 1,
      frames: quick ? 60 : 120,
      liveUpdates: 1000,
      // lightweight-charts needs ≈0.6 s per live update at 1M bars: its run stops at the budget.
      liveBudgetMs: quick ? 20_000 : 45_000,
      panBudgetMs: quick ? 12_000 : 30_000,
    }),
    report: sessionReport,
  },
  {
    // GPU-side cost (issue 15): the engine, lightweight-charts and the bare Pixi chart (tests/bench/bare-pixi.ts,
    // the floor of this stack) panning at 200, 5,000 and 20,000 visible bars of the largest size. The
    // runs are interleaved (each run visits every chart in turn) so a busy neighbour slows all alike.
    name: 'gpu',
    title: 'GPU-side cost: panning at dense zoom (engine, bare Pixi chart, lightweight-charts)',
    interleave: true,
    runs: () => mode.gpuRuns,
    cells: () =>
      mode.dprs.flatMap((dpr) =>
        ['lwc', 'pixi', 'engine-before', 'engine']
          .filter((l) => l === 'pixi' || (l === 'engine-before' ? mode.before : mode.libs.includes(l)))
          .map((lib) => ({ dpr, bars: Math.max(...mode.sizes), lib })),
      ),
    params: ({ lib, bars }) => ({ lib, bars, seed: 1, frames: 60, visible: [200, 5000, 20000], indicatorsVisible: 5000, panBudgetMs: quick ? 10_000 : 20_000 }),
    report: gpuReport,
  },
  {
    // Issue 25 §4: the first frame alone at 1M and 10M bars (the session page with the rest cut to a couple
    // of frames), beside lightweight-charts (1M only) and the bare Pixi chart; its own report and budgets.
    name: 'first-frame',
    page: 'session',
    title: 'First frame at 1M and 10M bars (engine, bare Pixi chart, lightweight-charts)',
    cells: () => mode.dprs.flatMap((dpr) => FIRST_FRAME_SIZES.flatMap((bars) => ['lwc', 'pixi', 'engine'].filter((lib) => lib !== 'lwc' || bars < 1e7).map((lib) => ({ dpr, bars, lib })))),
    // The engine takes typed columns (setCandleColumns); lightweight-charts and the bare Pixi chart their usual input.
    params: ({ lib, bars }) => ({ lib, bars, seed: 1, frames: 2, liveUpdates: 2, liveBudgetMs: 2_000, panBudgetMs: 2_000, columns: true }),
    report: (results, opts) => firstFrameReport(results, opts),
  },
  // Runs the product itself (server + signed-in workstation), not the bench page: `run` replaces the page function.
  fourChartsScenario({ root: ROOT, appPort: mode.appPort, quick }),
  // The same, with 2,000 scanner rows streaming beside a chart (issue 14).
  scannerScenario({ root: ROOT, appPort: mode.appPort, quick }),
  // Order book, Trades tape and DOM ladder at 50 book updates/s and 100 trades/s beside a chart (issue 25 §2).
  orderFlowScenario({ root: ROOT, appPort: mode.appPort, quick }),
  // Bytes on the wire for /login and /trade, plain and compressed (issue 25 §5, scripts/bench-first-load.mjs).
  firstLoadScenario({ root: ROOT, appPort: mode.appPort }),
];
const selected = SCENARIOS.filter((s) => !mode.scenarios || mode.scenarios.includes(s.name));

function serve(root, port) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    // Cross-origin isolation lets the page use performance.measureUserAgentSpecificMemory().
    res.writeHead(200, {
      'content-type': types[path.extname(file)] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`bench: cannot serve on port ${port} (${err.message}); pass --port=N`)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function machine() {
  let chromiumVersion = 'unknown';
  try {
    chromiumVersion = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    /* the version is informative only */
  }
  return { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', load: os.loadavg(), node: process.version, chromiumVersion };
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

/** Medians of every numeric leaf across runs. */
function mergeRuns(runs) {
  if (runs.length === 1) return runs[0];
  const walk = (items) => {
    const first = items[0];
    if (typeof first === 'number' || first === null) return median(items);
    if (typeof first !== 'object') return first;
    return Object.fromEntries(Object.keys(first).map((k) => [k, walk(items.map((x) => x?.[k]))]));
  };
  return walk(runs);
}

async function main() {
  const started = Date.now();
  const before = machine();
  console.log(`bench: ${quick ? 'quick' : 'full'} mode — sizes ${mode.sizes.join(', ')}, dpr ${mode.dprs.join(', ')}, ${mode.runs} run(s); load avg ${before.load.map((l) => l.toFixed(2)).join(' ')}`);
  mkdirSync(OUT, { recursive: true });
  if (mode.before) {
    // The engine at another ref, beside this one in the same run (tests/bench/before-engine.ts).
    const dir = path.join(ROOT, 'node_modules', '.cache', 'bench-before');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const commit = execFileSync('git', ['rev-parse', '--short', mode.before], { cwd: ROOT, encoding: 'utf8' }).trim();
    execFileSync('sh', ['-c', `git archive "${commit}" src/engine | tar -x -C "${dir}"`], { cwd: ROOT });
    process.env.BENCH_BEFORE_ENGINE = path.join(dir, 'src', 'engine', 'index.ts');
    mode.beforeCommit = commit;
    console.log(`bench: engine-before = src/engine at ${mode.before} (${commit})`);
  }
  const pageScenarios = selected.some((s) => !s.run);
  if (pageScenarios) await build({ configFile: path.join(BENCH_DIR, 'vite.config.ts'), logLevel: 'warn' });
  const server = pageScenarios ? await serve(OUT, mode.port) : null;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const sections = [];
  const raw = {};
  try {
    for (const scenario of selected) {
      if (scenario.run) {
        const t0 = Date.now();
        const result = await scenario.run(browser);
        console.log(`  ${scenario.name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        raw[scenario.name] = result;
        sections.push(scenario.report(result));
        continue;
      }
      const cells = scenario.cells();
      const runCount = scenario.runs ? scenario.runs() : mode.runs;
      const runsOf = cells.map(() => []);
      // Cells outer (each cell's runs back to back), or runs outer (every cell once per run).
      const order = scenario.interleave || args.interleave === 'true'
        ? Array.from({ length: runCount }, (_, r) => cells.map((_, c) => [c, r])).flat()
        : cells.flatMap((_, c) => Array.from({ length: runCount }, (_, r) => [c, r]));
      for (const [c, r] of order) {
        const cell = cells[c];
        const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: cell.dpr });
        const page = await context.newPage();
        page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
        await page.goto(`http://127.0.0.1:${mode.port}/index.html`);
        await page.waitForFunction(() => window.__bench?.ready === true);
        const t0 = Date.now();
        const result = await page.evaluate(([name, params]) => window.__bench.run(name, params), [scenario.page ?? scenario.name, scenario.params(cell)]);
        console.log(`  ${scenario.name} ${cell.lib} ${cell.bars} bars dpr ${cell.dpr} run ${r + 1}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        runsOf[c].push(result);
        await context.close();
      }
      const results = cells.map((cell, c) => ({ ...cell, result: mergeRuns(runsOf[c]), runs: runsOf[c] }));
      raw[scenario.name] = results;
      sections.push(scenario.report(results, { title: scenario.title, sizes: mode.sizes, dprs: mode.dprs, runs: runCount, load: os.loadavg(), before: mode.before && `${mode.before} (${mode.beforeCommit})` }));
    }
  } finally {
    await browser.close();
    server?.close();
  }
  const after = machine();
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const header = [
    '# Chart engine benchmark',
    '',
    `Generated by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — **${quick ? 'quick mode (one run, 100k and 1M bars)' : `full mode (${mode.runs} runs, medians)`}**, ${minutes} min.`,
    `Machine: ${before.cpus} × ${before.cpuModel || 'CPU'}, load average ${before.load.map((l) => l.toFixed(1)).join(' / ')} at start and ${after.load.map((l) => l.toFixed(1)).join(' / ')} at the end (other work shared the cores); ${before.chromiumVersion}, headless, SwiftShader WebGL2, CPU-rasterised 2D canvas, 1600×900.`,
    '',
    'Baseline: lightweight-charts 5.2.1 on the same seeded data in the same browser. Both charts show candles, volume, axes, grid, crosshair, last-price line and six price lines; the engine also shows three drawings (horizontal line, rectangle, fib retracement).',
    '',
    '- *first frame*: from handing the data over to the start of the frame after the first paint (main-thread work in brackets).',
    '- *JS heap*: growth of `performance.memory.usedJSHeapSize` after load, with the input released and a forced GC; in this Chromium it includes ArrayBuffer backing stores, i.e. the engine\'s typed columns. *total*: `measureUserAgentSpecificMemory()` growth, which also counts the WebGL canvas\'s drawing buffer (the engine asks for no depth or stencil buffer, so ≈ width × height × dpr² × 4 bytes: 5.8 MB at dpr 1, 23 MB at dpr 2) but not the CPU-rasterised 2D canvases of lightweight-charts.',
    '- *work*: main-thread ms per frame (the API call plus every requestAnimationFrame callback of the frame); *interval*: ms between frames, which includes rasterisation.',
    '- *live update*: one `updateLastCandle` / `series.update` per frame, work including the paint it causes.',
    '- ratio = lightweight-charts ÷ engine (higher is better for the engine).',
    '',
  ].join('\n');
  const resultsPath = path.join(BENCH_DIR, 'results.md');
  writeFileSync(path.join(OUT, 'results.json'), JSON.stringify({ mode, machine: { before, after }, raw }, null, 2));
  if (mode.dryRun) {
    console.log(sections.join('\n\n'));
    console.log(`bench: dry run, results.md left alone (${minutes} min)`);
    return;
  }
  const merged = mode.scenarios ? mergeResultSections(resultsPath, sections) : null;
  writeFileSync(resultsPath, merged ?? `${header}\n${sections.join('\n\n')}\n`);
  console.log(`bench: wrote tests/bench/results.md (${minutes} min)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

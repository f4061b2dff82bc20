// The "order-flow" scenario of `npm run bench` (issue 25 §2): at 50 book updates and 100 trades a
// second the Order book, Trades tape and DOM ladder repaint at most once a frame, keep main-thread work
// under 4 ms per frame p95 with a chart beside them, and allocate nothing per update in steady state.
// Like `scanner` it runs the real product — the server in simulator mode (scripts/e2e-server.mjs), the
// e2e admin signed in, a live chart (binance BTCUSDT 1m) — with the three panels beside it, and the
// same layout with the chart alone in the same run. The panels' Binance streams are answered inside
// the page at exact rates (bench-order-flow-stub.mjs: the simulator's own are slower).
//
// Measured per cell: frame intervals and every rAF callback's work (frameWorkMeter), every main-thread
// task cut at frame boundaries (a Chrome trace: the feed's work runs in message tasks, not in rAF),
// long tasks, the paints of each panel per frame (a canvas panel's `paintCount`, else a MutationObserver: a paint
// is one batch, so two in a frame is a second repaint), heap after a forced GC at the start and end
// of the window, and the JavaScript allocated meanwhile by source file (V8's sampling heap profiler,
// counting collected objects too, mapped through the build's source maps).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { fakeOrderFlowStreams } from './bench-order-flow-stub.mjs';
import { traceWork } from './bench-scanner.mjs';
import { frameWorkMeter, loadAdmin, storeLayout, summarise, waitForServer } from './bench-workstation.mjs';

const SYMBOL = 'BTCUSDT';
const DEPTH_PER_SECOND = 50;
const TRADES_PER_SECOND = 100;
/** Levels each depth update sets (Binance's 100 ms diffs of a busy pair carry tens). */
const LEVELS_PER_UPDATE = 20;
const LAYOUT_VERSION = 1; // src/api/contracts/settings.ts WORKSTATION_LAYOUT_VERSION
const TARGET_WORK_P95_MS = 4;
const MARK = 'order-flow-bench:start';
/**
 * The trace's categories: the top-level tasks and the mark. Not `disabled-by-default-devtools.timeline`
 * (the scanner's): it records a JavaScript stack for every DOM invalidation, and the panels write
 * hundreds of cells a frame — tracing then costs more than the panels.
 */
const traceCategories = (process.env.BENCH_ORDER_FLOW_TRACE ?? 'devtools.timeline,toplevel,blink.console').split(',');
const KEY_PASSWORD = 'bench-pass-1';
const CHROMIUM = '/usr/bin/chromium';
/** scripts/bench.mjs's browser flags, with the page rasterised on the CPU (the third cell). */
const CPU_RASTER_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-accelerated-2d-canvas',
  '--js-flags=--expose-gc',
  '--enable-precise-memory-info',
  '--disable-gpu-rasterization',
];
const PANELS = [
  { id: 'order-book', name: 'Order book', root: '[data-testid=order-book-canvas]' },
  { id: 'trades-tape', name: 'Trades tape', root: '[data-testid=trades-tape-canvas]' },
  { id: 'dom-ladder', name: 'DOM ladder', root: '[data-testid=dom-ladder-canvas]' },
];
/** Where an allocation is counted: the innermost frame from one of these sources. */
const BUCKETS = [
  ['order-book', 'src/panels/order-book/'],
  ['trades-tape', 'src/panels/trades-tape/'],
  ['dom-ladder', 'src/panels/dom-ladder/'],
  ['panels/shared', 'src/panels/shared/use-order-flow'],
  ['order-flow feed', 'src/api/market/order-flow/'],
  ['order-flow feed', 'src/api/market/ws-connection'],
  ['stub', 'bench-order-flow-stub'],
];

/** bench-order-flow-stub.mjs's functions that run per message. */
const STUB_FUNCTIONS = new Set(['nextDiff', 'nextTrade', 'rand', 'size', 'price', 'deliver', 'snapshot']);

const tab = (id, name, component, config) => ({ type: 'tab', id, name, component, ...(config ? { config } : {}) });
const ts = (id, weight, child, active) => ({ type: 'tabset', id, weight, children: [child], ...(active ? { active: true } : {}) });

/** The chart (active, so the trading panels follow its pair) and, with `panels`, the three beside it. */
function orderFlowLayout(panels) {
  const chart = ts('ts-chart', panels ? 40 : 100, tab('chart-bench', 'Chart', 'chart', { exchange: 'binance', symbol: SYMBOL, interval: '1m', link: null }), true);
  const others = panels ? PANELS.map((p) => ts(`ts-${p.id}`, 20, tab(`${p.id}-bench`, p.name, p.id))) : [];
  return { version: LAYOUT_VERSION, savedAt: Date.now(), model: { global: {}, borders: [], layout: { type: 'row', id: 'root', weight: 100, children: [chart, ...others] } } };
}

/** The simulator's book of the pair, for a realistic price and its tick (the stub's book sits there). */
async function simMarket(base) {
  const info = await (await fetch(`${base}/sim/binance/fapi/v1/exchangeInfo`)).json();
  const sym = info.symbols.find((s) => s.symbol === SYMBOL);
  const tick = sym.filters.find((f) => f.filterType === 'PRICE_FILTER').tickSize;
  const book = await (await fetch(`${base}/sim/binance/fapi/v1/depth?symbol=${SYMBOL}&limit=5`)).json();
  const bid = Number(book.bids[0][0]);
  const decimals = (tick.split('.')[1] ?? '').replace(/0+$/, '').length;
  return { tick: Number(tick), decimals, midTicks: Math.round(bid / Number(tick)) };
}

/**
 * In the page: frames, rAF work, long tasks and each panel's paints per frame over `seconds` — a
 * canvas panel's `paintCount` (src/panels/shared/canvas/painted.ts) read each frame, else its DOM
 * write batches (a MutationObserver).
 */
function measureOrderFlow({ seconds, panels, mark }) {
  return new Promise((resolve) => {
    let frame = 0;
    const batches = panels.map(() => new Map());
    const canvases = panels.map((selector) => document.querySelector(selector)).map((el) => (el && typeof el.paintCount === 'number' ? { el, seen: el.paintCount } : null));
    const observers = panels.map((selector, i) => {
      const mo = new MutationObserver(() => batches[i].set(frame, (batches[i].get(frame) ?? 0) + 1));
      const el = document.querySelector(selector);
      if (el && !canvases[i]) mo.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
      return mo;
    });
    const countPaints = () =>
      canvases.forEach((c, i) => {
        if (!c || c.el.paintCount === c.seen) return;
        batches[i].set(frame, (batches[i].get(frame) ?? 0) + c.el.paintCount - c.seen);
        c.seen = c.el.paintCount;
      });
    const longTasks = [];
    const lt = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
    try {
      lt.observe({ type: 'longtask', buffered: false });
    } catch {
      // no long-task timing
    }
    const before = { ...window.__orderFlowBench };
    const frames = [];
    const work = [];
    const intervals = [];
    const t0 = performance.now();
    console.timeStamp(mark);
    let last = -1;
    const tick = (t) => {
      countPaints();
      frame += 1;
      frames.push(t);
      if (last >= 0) {
        intervals.push(t - last);
        work.push(window.__frameWork ?? Number.NaN);
      }
      window.__frameWork = 0;
      last = t;
      if (t - t0 < seconds * 1000) requestAnimationFrame(tick);
      else {
        observers.forEach((o) => o.disconnect());
        lt.disconnect();
        const after = window.__orderFlowBench;
        const perPanel = batches.map((m) => {
          const counts = [...m.values()];
          return { framesWritten: counts.length, maxPerFrame: counts.length ? Math.max(...counts) : 0, framesOverOne: counts.filter((c) => c > 1).length };
        });
        resolve({ t0, frames, intervals, work, longTasks, elapsedMs: t - frames[0], frameCount: frames.length, perPanel, depth: after.depth - before.depth, trades: after.trades - before.trades, charts: 1, updates: [] });
      }
    };
    requestAnimationFrame(tick);
  });
}

const heapAfterGc = (page) =>
  page.evaluate(() => {
    window.gc?.();
    return performance.memory?.usedJSHeapSize ?? Number.NaN;
  });

/** Source maps of the built SPA (dist/assets/*.js.map), loaded once per script URL. */
function sourceResolver(root) {
  const maps = new Map();
  const consumer = (url) => {
    if (!maps.has(url)) {
      let c = null;
      const m = /\/assets\/([^/?#]+\.js)/.exec(url);
      const file = m ? path.join(root, 'dist', 'assets', `${m[1]}.map`) : null;
      if (file && existsSync(file)) c = new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')));
      maps.set(url, c);
    }
    return maps.get(url);
  };
  return (frame) => {
    if (!frame.url) return '';
    const c = consumer(frame.url);
    if (!c) return frame.url;
    return c.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber }).source ?? frame.url;
  };
}

/** Bytes allocated per bucket: each sampled node counts for the innermost frame of a bucket's sources above it. */
function allocationsBySource(profile, resolve) {
  const out = {};
  const walk = (node, bucket) => {
    const source = resolve(node.callFrame);
    // The stub's frames carry no URL in this profile (an init script): known by their names.
    const stub = !source && STUB_FUNCTIONS.has(node.callFrame.functionName);
    const own = stub ? 'stub' : BUCKETS.find(([, prefix]) => source.includes(prefix))?.[0];
    const b = own ?? bucket;
    out[b] = (out[b] ?? 0) + node.selfSize;
    for (const child of node.children ?? []) walk(child, b);
  };
  walk(profile.head, 'other (chart, React, browser)');
  return out;
}

/** Debugging aid (BENCH_ORDER_FLOW_PROFILE=<file prefix>): 3 s of CPU profile, self time by source and function, and the trace's busiest event names. */
async function dumpCpuProfile(cdp, root, file, trace) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  await new Promise((r) => setTimeout(r, 3000));
  const { profile } = await cdp.send('Profiler.stop');
  const resolve = sourceResolver(root);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const key = `${resolve(n.callFrame)} ${n.callFrame.functionName}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const top = [...self].sort((x, y) => y[1] - x[1]).slice(0, 40);
  // Inclusive time by function (what a painter's paint costs with all it calls).
  const selfOf = new Map();
  profile.samples.forEach((id, i) => selfOf.set(id, (selfOf.get(id) ?? 0) + (dt[i] ?? 0) / 1000));
  const inclusive = new Map();
  const total = (n) => {
    let t = selfOf.get(n.id) ?? 0;
    for (const c of n.children ?? []) t += total(byId.get(c));
    const key = `${resolve(n.callFrame)} ${n.callFrame.functionName}`;
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    return t;
  };
  total(profile.nodes[0]);
  top.push(['--- inclusive ---', 0], ...[...inclusive].filter(([k]) => k.includes('src/')).sort((x, y) => y[1] - x[1]).slice(0, 30));
  const all = Array.isArray(trace) ? trace : trace.traceEvents;
  writeFileSync(`${file}-trace.json`, JSON.stringify(all));
  const at = all.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === MARK);
  // Exclusive time per event name on the page's main thread.
  const names = exclusiveByName(all, (e) => at && e.pid === at.pid && e.tid === at.tid);
  const threadName = new Map(all.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}/${e.tid}`, e.args.name]));
  const threads = new Map();
  for (const e of all) {
    if (e.ph !== 'X' || !/RunTask$/.test(e.name) || typeof e.dur !== 'number') continue;
    const k = `${e.pid}/${e.tid} ${threadName.get(`${e.pid}/${e.tid}`) ?? ''}`;
    threads.set(k, (threads.get(k) ?? 0) + e.dur / 1000);
  }
  names.set('--- threads (RunTask, may nest) ---', 0);
  for (const [k, v] of threads) names.set(`thread ${k}`, v);
  const busiest = [...names].sort((x, y) => y[1] - x[1]).slice(0, 60);
  // The GPU process's main thread (rasterising, compositing, the chart's WebGL under SwiftShader): exclusive time by event name.
  const gpu = [...threadName].find(([, name]) => name === 'CrGpuMain')?.[0];
  const gpuNames = gpu ? exclusiveByName(all, (e) => `${e.pid}/${e.tid}` === gpu) : new Map();
  busiest.push(['--- CrGpuMain, exclusive ---', 0], ...[...gpuNames].sort((x, y) => y[1] - x[1]).slice(0, 40));
  writeFileSync(`${file}.txt`, [...top.map(([k, v]) => `${v.toFixed(1)} ms  ${k}`), '', ...busiest.map(([k, v]) => `${v.toFixed(1)} ms  ${k}`)].join('\n'));
}

/** Exclusive time (ms) per event name of the complete trace events `on` keeps (one thread's: nested events subtracted). */
function exclusiveByName(all, on) {
  const events = all.filter((e) => e.ph === 'X' && typeof e.dur === 'number' && on(e)).sort((x, y) => x.ts - y.ts || y.dur - x.dur);
  const names = new Map();
  const stack = [];
  for (const e of events) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) names.set(parent.name, (names.get(parent.name) ?? 0) - e.dur / 1000);
    names.set(e.name, (names.get(e.name) ?? 0) + e.dur / 1000);
    stack.push({ name: e.name, end: e.ts + e.dur });
  }
  return names;
}

/** Debugging aid, in the page: the DOM written during `ms`, counted by the nearest element with a test id (what repaints besides the canvases). */
function domWrites(ms) {
  return new Promise((resolve) => {
    const counts = new Map();
    const where = (n) => {
      const el = n.nodeType === 1 ? n : n.parentElement;
      const owner = el?.closest('[data-testid]');
      return `${owner?.getAttribute('data-testid') ?? '(none)'} ${el?.tagName ?? ''}.${String(el?.className ?? '').slice(0, 40)}`;
    };
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const k = `${r.type}${r.attributeName ? `[${r.attributeName}]` : ''} ${where(r.target)}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    setTimeout(() => {
      observer.disconnect();
      resolve([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v}  ${k}`).join('\n'));
    }, ms);
  });
}

/** Debugging aid, before the app loads: a stand-in for React's devtools hook that counts, per commit, the components that rendered. */
function reactCommitProbe() {
  const probe = { on: false, commits: 0, counts: new Map() };
  window.__reactProbe = probe;
  const nameOf = (t) => (typeof t === 'function' ? t.displayName || t.name : t && (t.displayName || t.render?.displayName || t.render?.name || t.type?.displayName || t.type?.name)) || '?';
  const walk = (f) => {
    for (let x = f; x; x = x.sibling) {
      if ([0, 1, 11, 14, 15].includes(x.tag) && (!x.alternate || x.flags & 1)) probe.counts.set(nameOf(x.type), (probe.counts.get(nameOf(x.type)) ?? 0) + 1);
      if (x.child && (!x.alternate || x.child !== x.alternate.child)) walk(x.child);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(), supportsFiber: true, isDisabled: false, inject: () => ((probe.injected = (probe.injected ?? 0) + 1), probe.injected), onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {},
    onCommitFiberRoot(_id, root) {
      if (!probe.on) return;
      probe.commits += 1;
      walk(root.current.child);
    },
  };
}

/** Debugging aid, in the page: React commits during `ms` and the components rendered in them (with `reactCommitProbe`). */
function reactCommits(ms) {
  const probe = window.__reactProbe;
  if (!probe) return Promise.resolve('(no probe)');
  probe.counts.clear();
  probe.commits = 0;
  probe.on = true;
  return new Promise((resolve) => {
    setTimeout(() => {
      probe.on = false;
      resolve([`${probe.commits} commits in ${ms} ms (renderers injected: ${probe.injected ?? 0})`, ...[...probe.counts].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([k, v]) => `${v}  ${k}`)].join('\n'));
    }, ms);
  });
}

/** Debugging aid: bytes allocated by each source and function (self), the biggest first. */
function dumpHeapProfile(profile, resolve, file) {
  const self = new Map();
  const walk = (node, parent) => {
    const key = `${resolve(node.callFrame)} ${node.callFrame.functionName || '(anonymous)'} <- ${parent}`;
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    for (const child of node.children ?? []) walk(child, `${resolve(node.callFrame)} ${node.callFrame.functionName}`);
  };
  walk(profile.head, '');
  const top = [...self].sort((x, y) => y[1] - x[1]).slice(0, 40);
  writeFileSync(file, top.map(([k, v]) => `${(v / 1024).toFixed(0)} KB  ${k}`).join('\n'));
}

/** Signs in, waits for the layout, and with the panels creates and unlocks a simulator key for the DOM ladder. */
async function openWorkstation(page, base, admin, panels) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/trade$/);
  if (panels) {
    const ladder = page.getByTestId('panel-dom-ladder');
    const create = ladder.getByRole('button', { name: 'Create a simulator key' });
    const unlock = ladder.getByTestId('unlock-key');
    await create.or(unlock).first().waitFor({ timeout: 30_000 });
    if (await create.isVisible()) {
      await ladder.getByLabel('Key password for a new simulator key').fill(KEY_PASSWORD);
      await create.click();
    }
    await unlock.waitFor({ timeout: 15_000 });
    await unlock.getByLabel('Key password').fill(KEY_PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
  }
  await page.waitForFunction(
    (withPanels) => {
      const chart = document.querySelector('[data-testid=chart-body]');
      if (!chart || chart.getAttribute('data-status') !== 'ready' || !chart.hasAttribute('data-last-price')) return false;
      if (!withPanels) return true;
      return (
        document.querySelector('[data-testid=order-book]')?.getAttribute('data-status') === 'live' &&
        (document.querySelector('[data-testid=trades-tape-canvas]')?.painted?.length ?? 0) > 0 &&
        (document.querySelector('[data-testid=dom-ladder-canvas]')?.painted?.rows.length ?? 0) > 10
      );
    },
    panels,
    { timeout: 60_000 },
  );
}

/** One cell in a fresh context: warm-up, frames + trace, heap after GC before and after, then allocation sampling. */
async function measureCell(browser, { base, root, admin, panels, market, seconds, traceSeconds, allocSeconds, label = panels ? 'panels' : 'chart' }) {
  await storeLayout(base, admin, orderFlowLayout(panels));
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
    await page.addInitScript(frameWorkMeter);
    if (process.env.BENCH_ORDER_FLOW_PROFILE) await page.addInitScript(reactCommitProbe);
    const params = { symbol: SYMBOL, ...market, depthPerSecond: DEPTH_PER_SECOND, tradesPerSecond: TRADES_PER_SECOND, levelsPerUpdate: LEVELS_PER_UPDATE };
    // sourceURL: the generator's own allocations are told from the product's.
    await page.addInitScript({ content: `(${fakeOrderFlowStreams})(${JSON.stringify(params)});\n//# sourceURL=bench-order-flow-stub.js` });
    await openWorkstation(page, base, admin, panels);
    await page.mouse.move(5, 5); // off the panels: no hover
    await page.waitForTimeout(3000); // warm-up: shaders, glyphs, the panels' first frames
    const heapStart = await heapAfterGc(page);
    // Untraced and unobserved: frames and rAF work as the trader's browser runs them.
    const raw = await page.evaluate(measureOrderFlow, { seconds, panels: [], mark: 'order-flow-bench:clean' });
    const heapEnd = await heapAfterGc(page);
    // Traced, with a MutationObserver per panel: all tasks per frame and the write batches.
    await browser.startTracing(page, { categories: traceCategories });
    const observed = await page.evaluate(measureOrderFlow, { seconds: traceSeconds, panels: panels ? PANELS.map((p) => p.root) : [], mark: MARK });
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));

    const cdp = await context.newCDPSession(page);
    if (process.env.BENCH_ORDER_FLOW_PROFILE) writeFileSync(`${process.env.BENCH_ORDER_FLOW_PROFILE}-${label}-mutations.txt`, await page.evaluate(domWrites, 2000));
    if (process.env.BENCH_ORDER_FLOW_PROFILE) writeFileSync(`${process.env.BENCH_ORDER_FLOW_PROFILE}-${label}-renders.txt`, await page.evaluate(reactCommits, 3000));
    if (process.env.BENCH_ORDER_FLOW_PROFILE) await dumpCpuProfile(cdp, root, `${process.env.BENCH_ORDER_FLOW_PROFILE}-${label}`, trace);
    await cdp.send('HeapProfiler.enable');
    const counted = () => page.evaluate(() => ({ ...window.__orderFlowBench }));
    const c0 = await counted();
    await cdp.send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const sampled = await page.evaluate(measureOrderFlow, { seconds: allocSeconds, panels: [], mark: 'order-flow-bench:alloc' });
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    const c1 = await counted();
    const allocated = allocationsBySource(profile, sourceResolver(root));
    if (process.env.BENCH_ORDER_FLOW_PROFILE) dumpHeapProfile(profile, sourceResolver(root), `${process.env.BENCH_ORDER_FLOW_PROFILE}-heap-${label}.txt`);
    const s = summarise(raw);
    return {
      ...s,
      trace: traceWork(trace, observed, MARK),
      traced: { ...summarise(observed), elapsedMs: observed.elapsedMs },
      depthPerSecond: (raw.depth / raw.elapsedMs) * 1000,
      tradesPerSecond: (raw.trades / raw.elapsedMs) * 1000,
      frames: raw.frameCount,
      perPanel: panels ? Object.fromEntries(PANELS.map((p, i) => [p.id, { ...observed.perPanel[i], frames: observed.frameCount, perSecond: (observed.perPanel[i].framesWritten / observed.elapsedMs) * 1000 }])) : null,
      heap: { startMB: heapStart / 2 ** 20, endMB: heapEnd / 2 ** 20, growthKBps: (heapEnd - heapStart) / 1024 / (raw.elapsedMs / 1000) },
      alloc: { seconds: sampled.elapsedMs / 1000, frames: sampled.frameCount, updates: c1.depth - c0.depth + (c1.trades - c0.trades), depth: c1.depth - c0.depth, trades: c1.trades - c0.trades, bytes: allocated },
    };
  } finally {
    await context.close();
  }
}

/** The scenario entry for scripts/bench.mjs (`run` instead of a page function). */
export function orderFlowScenario({ root, appPort, quick }) {
  const title = 'Order flow: Order book, Trades tape and DOM ladder at 50 book updates/s and 100 trades/s beside a chart (real app, synthetic stream)';
  return {
    name: 'order-flow',
    title,
    async run(browser) {
      const base = `http://127.0.0.1:${appPort}`;
      const log = [];
      const child = spawn(process.execPath, [path.join(root, 'scripts', 'e2e-server.mjs')], {
        cwd: root,
        env: { ...process.env, PORT: String(appPort), LOG_LEVEL: 'warn' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (d) => log.push(String(d)));
      child.stderr.on('data', (d) => log.push(String(d)));
      const seconds = quick ? 10 : 20;
      const allocSeconds = quick ? 5 : 10;
      const traceSeconds = quick ? 5 : 10;
      try {
        await waitForServer(base, child, 240_000);
        const { E2E_ADMIN: admin } = await loadAdmin(root);
        const market = await simMarket(base);
        const cell = (panels) => measureCell(browser, { base, root, admin, panels, market, seconds, traceSeconds, allocSeconds });
        const chartOnly = await cell(false);
        const withPanels = await cell(true);
        // The same panels in a browser that rasterises the page on the CPU (raster threads) instead of
        // through SwiftShader's GL in the GPU process: how much of the frame rate is that rasteriser's.
        const cpuBrowser = await browser.browserType().launch({ executablePath: CHROMIUM, args: [...CPU_RASTER_ARGS] });
        let cpuRaster;
        try {
          cpuRaster = await measureCell(cpuBrowser, { base, root, admin, panels: true, market, seconds, traceSeconds, allocSeconds, label: 'panels-cpu-raster' });
        } finally {
          await cpuBrowser.close();
        }
        return { seconds, allocSeconds, chartOnly, withPanels, cpuRaster, load: loadavg().map((l) => l.toFixed(1)).join(' / ') };
      } catch (error) {
        console.error(log.join('').slice(-2000));
        throw error;
      } finally {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    },
    report: (result) => orderFlowReport(title, result),
  };
}

/** Bytes the named buckets allocated, per update delivered and per frame. */
function allocated(cell, names) {
  const bytes = names.reduce((sum, n) => sum + (cell.alloc.bytes[n] ?? 0), 0);
  return { perUpdate: cell.alloc.updates > 0 ? bytes / cell.alloc.updates : Number.NaN, perFrame: cell.alloc.frames > 0 ? bytes / cell.alloc.frames : Number.NaN };
}

const PANEL_CODE = ['order-book', 'trades-tape', 'dom-ladder', 'panels/shared'];

function orderFlowReport(title, result) {
  const f = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1)) : '–');
  const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
  const { chartOnly: a, withPanels: b, cpuRaster: c3 } = result;
  const cols = [a, b, c3].filter(Boolean);
  const row = (label, pick) => `| ${label} | ${cols.map(pick).join(' | ')} |`;
  const kbps = (c, n) => f((c.alloc.bytes[n] ?? 0) / 1024 / c.alloc.seconds);
  const bucketNames = [...new Set(cols.flatMap((c) => Object.keys(c.alloc.bytes)))].sort();
  const onceAFrame = PANELS.every((p) => b.perPanel[p.id].maxPerFrame <= 1);
  const workMet = b.trace !== null && b.trace.cpu.p95 < TARGET_WORK_P95_MS;
  const wallMet = b.trace !== null && b.trace.p95 < TARGET_WORK_P95_MS;
  // The panels paint once a frame, not per update: their bytes per update fall as updates crowd into frames.
  const painters = allocated(b, PANEL_CODE);
  const word = (ok) => (ok ? 'met' : 'not met');
  return [
    `## ${title}`,
    '',
    `The workstation at 1600×900, dpr 1: a live chart (binance ${SYMBOL} 1m, simulator) alone, then with the Order book, Trades tape and DOM ladder beside it on the same pair (four columns), in the bench's browser (SwiftShader: the page's DOM is rasterised through GL in the GPU process) and, third column, in the same browser with \`--disable-gpu-rasterization\` (the DOM rasterised on the CPU). The panels' streams are the benchmark's, answered inside the page in Binance's formats (scripts/bench-order-flow-stub.mjs): \`@depth@100ms\` diffs at **${DEPTH_PER_SECOND}/s** (${LEVELS_PER_UPDATE} levels each, the touch moving a tick one update in five), the \`/fapi/v1/depth\` snapshot (following the diffs delivered), \`@aggTrade\` at **${TRADES_PER_SECOND}/s** (10 ms apart: none merge in the tape's 5 ms aggregation) — the simulator's own streams are slower (depth every 100 ms, trades every 250 ms); the messages are written before the run, so delivering one costs the page what a socket's does. The panels' canvases are drawn by the paint worker (src/panels/shared/canvas/remote-canvas.ts): what the main thread spends on them is the painters' recording. Before it (2026-11-27, same scenario): 5.0 frames a second, main-thread work per frame p95 39.7 ms. Frames timed for ${result.seconds} s after a 3 s warm-up, untraced; then ${Math.round(b.traced.elapsedMs / 1000)} s traced (every main-thread task cut at frame boundaries) counting each panel's paints per frame (its canvas's \`paintCount\`; a frame with two is a second repaint); then ${result.allocSeconds} s of V8's sampling heap profiler (1 KB interval, collected objects counted), each sample given to the innermost frame from the sources named (through the build's source maps). Load average at the end: ${result.load}.`,
    '',
    `| metric | chart only | chart + Order book + Trades tape + DOM ladder |${c3 ? ' the same, DOM rasterised on the CPU |' : ''}`,
    `|---|---:|---:|${c3 ? '---:|' : ''}`,
    row('frames per second', (c) => f(c.fps)),
    row('rAF interval median / p95 / max, ms', (c) => `${f(c.intervalMedian)} / ${f(c.intervalP95)} / ${f(c.intervalMax)}`),
    row('rAF callbacks per frame median / **p95**, ms', (c) => `${f2(c.workMedian)} / **${f2(c.workP95)}**`),
    row('long tasks (> 50 ms), count / longest ms', (c) => `${c.longTasks} / ${f(c.longTaskMaxMs)}`),
    row('traced: frames per second', (c) => f(c.traced.fps)),
    row("traced: main-thread work per frame, all tasks, the thread's CPU time: median / **p95** / p99 / max, ms", (c) => (c.trace ? `${f2(c.trace.cpu.median)} / **${f2(c.trace.cpu.p95)}** / ${f2(c.trace.cpu.p99)} / ${f(c.trace.cpu.max)}` : '–')),
    row('traced: the same tasks, wall time (their waits for a core included): median / **p95** / p99 / max, ms', (c) => (c.trace ? `${f2(c.trace.median)} / **${f2(c.trace.p95)}** / ${f2(c.trace.p99)} / ${f(c.trace.max)}` : '–')),
    row('traced: main-thread busy, all tasks, ms per second', (c) => (c.trace ? f((c.trace.mean * c.trace.frames) / (c.traced.elapsedMs / 1000)) : '–')),
    row('book updates / trades delivered per second', (c) => `${f(c.depthPerSecond)} / ${f(c.tradesPerSecond)}`),
    ...PANELS.map((p) => row(`${p.name}: frames painted · most paints in one frame · frames with more than one (of frames)`, (c) => (c.perPanel ? `${c.perPanel[p.id].framesWritten} · ${c.perPanel[p.id].maxPerFrame} · ${c.perPanel[p.id].framesOverOne} (${c.perPanel[p.id].frames})` : '–'))),
    row('JS heap after GC, start → end of the untraced window, MB (growth KB/s)', (c) => `${f(c.heap.startMB)} → ${f(c.heap.endMB)} (${f(c.heap.growthKBps)})`),
    ...bucketNames.map((n) => row(`JS allocated, ${n}, KB/s`, (c) => kbps(c, n))),
    row("JS allocated by the panels' code (painters, hooks): bytes per frame / per update", (c) => (c === a ? '–' : `${f(allocated(c, PANEL_CODE).perFrame)} / ${f(allocated(c, PANEL_CODE).perUpdate)}`)),
    row('JS allocated by the order-flow feed (sockets, parse, book, ring): bytes per update', (c) => (c === a ? '–' : f(allocated(c, ['order-flow feed']).perUpdate))),
    '',
    `Targets (issue 25 §2), with the three panels, bench browser: at most one repaint a frame — **${word(onceAFrame)}**; main-thread work per frame < ${TARGET_WORK_P95_MS} ms p95 (all tasks), the main thread's CPU time — **${word(workMet)}** (${f2(b.trace?.cpu.p95)} ms${c3 && c3.trace ? `; DOM rasterised on the CPU: ${f2(c3.trace.cpu.p95)} ms, **${word(c3.trace.cpu.p95 < TARGET_WORK_P95_MS)}**` : ''}); the same tasks' wall time, their waits for a core (SwiftShader's raster threads hold the 2 cores) included — **${word(wallMet)}** (${f2(b.trace?.p95)} ms${c3 && c3.trace ? `; CPU raster ${f2(c3.trace.p95)} ms` : ''}); no allocation per update — the panels paint per frame, not per update, and allocate ${f(painters.perFrame)} bytes a paint (${f(painters.perUpdate)} per update): **${word(painters.perFrame < 16)}**. The feed's own bytes per update (\`JSON.parse\` of each message, the exchange's strings kept in the pooled levels and ring) are listed apart: the wire's text has to become objects once.`,
  ].join('\n');
}

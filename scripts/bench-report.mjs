// Markdown for scripts/bench.mjs: one table per device pixel ratio (lightweight-charts vs engine per
// bar count, with the ratio) and the DESIGN §7 targets checked against the same run.

const fmt = (v) => {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
};
const ratio = (base, ours) => (Number.isFinite(base) && Number.isFinite(ours) && ours > 0 ? base / ours : Number.NaN);
const fmtRatio = (r) => (Number.isFinite(r) ? `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×` : '–');
const sizeName = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

/** Metric rows: [label, value(result) → number, detail(result) → string | null]. */
const ROWS = [
  ['first frame, ms', (r) => r.load.presentedMs, (r) => `(${fmt(r.load.firstFrameWorkMs)})`],
  ['JS heap after load, MB', (r) => r.memory.jsHeapMB, (r) => (r.memory.totalMB !== null ? `total ${fmt(r.memory.totalMB)}` : null)],
  ['live update + render, work median ms', (r) => r.live.workMedian, (r) => `p95 ${fmt(r.live.workP95)}${r.live.steps < 1000 ? `, ${r.live.steps} of 1000 updates in the time budget` : ''}`],
  ['zoom 100→20k bars, work p95 ms', (r) => r.zoom.workP95, (r) => `median ${fmt(r.zoom.workMedian)}`],
  ['pan, 5,000 bars visible, work median ms', (r) => r.pan5000.workMedian, (r) => `p95 ${fmt(r.pan5000.workP95)}, ${r.pan5000.steps} frames`],
  ['pan, 5,000 bars visible, frame interval median ms', (r) => r.pan5000.intervalMedian, (r) => `p95 ${fmt(r.pan5000.intervalP95)}`],
  ['pan, ~200 bars visible, work median ms', (r) => r.pan200.workMedian, (r) => `p95 ${fmt(r.pan200.workP95)}, ${r.pan200.steps} frames`],
  ['pan, ~200 bars visible, frame interval median ms', (r) => r.pan200.intervalMedian, (r) => `p95 ${fmt(r.pan200.intervalP95)}`],
];

function find(results, lib, bars, dpr) {
  return results.find((x) => x.lib === lib && x.bars === bars && x.dpr === dpr)?.result ?? null;
}

export function sessionReport(results, { title, sizes, dprs }) {
  const out = [`## ${title}`];
  for (const dpr of dprs) {
    out.push('', `### dpr ${dpr}`, '');
    out.push(`| metric | ${sizes.map((s) => `${sizeName(s)}: lightweight-charts | engine | ratio`).join(' | ')} |`);
    out.push(`|---|${sizes.map(() => '---:|---:|---:').join('|')}|`);
    for (const [label, value, detail] of ROWS) {
      const cells = sizes.map((s) => {
        const b = find(results, 'lwc', s, dpr);
        const e = find(results, 'engine', s, dpr);
        const bv = b ? value(b) : Number.NaN;
        const ev = e ? value(e) : Number.NaN;
        const bd = b ? detail(b) : null;
        const ed = e ? detail(e) : null;
        return `${fmt(bv)}${bd ? ` <sub>${bd}</sub>` : ''} | ${fmt(ev)}${ed ? ` <sub>${ed}</sub>` : ''} | ${fmtRatio(ratio(bv, ev))}`;
      });
      out.push(`| ${label} | ${cells.join(' | ')} |`);
    }
  }
  out.push('', targets(results, sizes, dprs));
  return out.join('\n');
}

/** DESIGN §7 / issue 3 targets, each judged in this run. */
function targets(results, sizes, dprs) {
  const lines = ['### Targets (same run)', '', '| target | dpr | lightweight-charts | engine | met |', '|---|---|---:|---:|:---:|'];
  const big = Math.max(...sizes);
  const row = (label, dpr, b, e, ok) => lines.push(`| ${label} | ${dpr} | ${b} | ${e} | ${ok ? 'yes' : '**no**'} |`);
  for (const dpr of dprs) {
    const B = find(results, 'lwc', big, dpr);
    const E = find(results, 'engine', big, dpr);
    if (!B || !E) continue;
    const ff = ratio(B.load.presentedMs, E.load.presentedMs);
    row(`${sizeName(big)} bars: first frame ≥ 15× faster and ≤ 180 ms`, dpr, fmt(B.load.presentedMs), `${fmt(E.load.presentedMs)} (${fmtRatio(ff)})`, ff >= 15 && E.load.presentedMs <= 180);
    const bm = B.memory.jsHeapMB;
    const em = E.memory.jsHeapMB;
    row(`${sizeName(big)} bars: memory (JS heap incl. typed arrays) ≥ 10× smaller`, dpr, fmt(bm), `${fmt(em)} (${fmtRatio(ratio(bm, em))})`, ratio(bm, em) >= 10);
    if (B.memory.totalMB !== null && E.memory.totalMB !== null) {
      const bt = B.memory.totalMB;
      const et = E.memory.totalMB;
      row(`${sizeName(big)} bars: total page memory (incl. the WebGL drawing buffers) ≥ 10× smaller`, dpr, fmt(bt), `${fmt(et)} (${fmtRatio(ratio(bt, et))})`, ratio(bt, et) >= 10);
    }
    row(`${sizeName(big)} bars: zoom work p95 ≥ 5× lower`, dpr, fmt(B.zoom.workP95), `${fmt(E.zoom.workP95)} (${fmtRatio(ratio(B.zoom.workP95, E.zoom.workP95))})`, ratio(B.zoom.workP95, E.zoom.workP95) >= 5);
    row(`${sizeName(big)} bars: pan work, 5,000 visible, ≥ 5× lower`, dpr, fmt(B.pan5000.workMedian), `${fmt(E.pan5000.workMedian)} (${fmtRatio(ratio(B.pan5000.workMedian, E.pan5000.workMedian))})`, ratio(B.pan5000.workMedian, E.pan5000.workMedian) >= 5);
    row(`${sizeName(big)} bars: pan frame interval, 5,000 visible, no worse`, dpr, fmt(B.pan5000.intervalMedian), fmt(E.pan5000.intervalMedian), E.pan5000.intervalMedian <= B.pan5000.intervalMedian * 1.02);
    for (const s of sizes) {
      const b = find(results, 'lwc', s, dpr);
      const e = find(results, 'engine', s, dpr);
      if (!b || !e) continue;
      row(`${sizeName(s)} bars: pan work, ~200 visible, at least on par`, dpr, fmt(b.pan200.workMedian), fmt(e.pan200.workMedian), e.pan200.workMedian <= b.pan200.workMedian * 1.05);
      row(`${sizeName(s)} bars: live update + render < 1 ms median`, dpr, fmt(b.live.workMedian), fmt(e.live.workMedian), e.live.workMedian < 1);
    }
  }
  return lines.join('\n');
}

const LIB_NAMES = { lwc: 'lightweight-charts', pixi: 'bare Pixi chart', 'engine-before': 'engine before', engine: 'engine' };
const visibleName = (key) => {
  const [v, extra] = String(key).split('+');
  return `${Number(v).toLocaleString('en-US')} bars visible${extra ? ', SMA + EMA + VWAP + Bollinger (6 lines)' : ''}`;
};

/**
 * The gpu scenario (issue 15): per dpr, the frame interval and main-thread work while panning at
 * each zoom level for lightweight-charts, the bare Pixi chart and the engine, with what each WebGL
 * chart sent to the GPU per frame; the per-run interval medians show how stable the medians are.
 */
export function gpuReport(results, { title, dprs, runs, load, before }) {
  const out = [`## ${title}`, ''];
  const libs = ['lwc', 'pixi', 'engine-before', 'engine'].filter((l) => results.some((r) => r.lib === l));
  const bars = results[0]?.bars ?? 0;
  out.push(
    `${sizeName(bars)} bars, 1600×900, ${runs} runs per chart, interleaved (each run visits every chart in turn), medians of the runs' medians; 60 pan steps per zoom level, each step \`setVisibleRange\` plus a synchronous paint (engine \`renderNow()\`, the bare chart's \`render()\`; lightweight-charts paints in its own animation frame). Load average at the end: ${load.map((l) => l.toFixed(1)).join(' / ')}.`,
    '',
    ...(before ? [`- *engine before*: \`src/engine\` at ${before}, extracted with \`git archive\` and measured in the same run (\`--before=<ref>\`); its counters are read at its context's WebGL calls by the bench.`] : []),
    '- *bare Pixi chart* (`tests/bench/bare-pixi.ts`): the floor of this stack — one instanced Mesh for wicks, bodies and volume, a level-of-detail pyramid so every drawn candle is ≥ 1 device px, an instanced Mesh of rects for grid/axes/crosshair, pooled BitmapText labels, no drawings or price lines.',
    "- *interval*: ms between animation frames — bounded by what the GPU process does with each frame (SwiftShader rasterises on the CPU), so it is the GPU-side cost; *work*: main-thread ms per frame.",
    '- *draw calls*, *vertices* (indices × instances), *uploaded* (buffer bytes) and *texture uploads* per frame are counted at the WebGL calls of each chart\'s own context (the engine: `getRenderStats()`); *candles drawn*: candle instances (engine: columns), *candle px*: device pixels covered by the engine\'s wick/body/volume quads; *labels re-laid-out*: the engine\'s BitmapTexts whose string changed.',
    '',
  );
  const fmtInt = (v) => (v === null || v === undefined || Number.isNaN(v) ? '–' : Math.round(v).toLocaleString('en-US'));
  const withBefore = libs.includes('engine-before');
  const targetLines = [
    `| target | dpr | bare Pixi chart |${withBefore ? ' engine before |' : ''} engine | met |`,
    `|---|---|---:|${withBefore ? '---:|' : ''}---:|:---:|`,
  ];
  for (const dpr of dprs) {
    const byLib = Object.fromEntries(libs.map((l) => [l, results.find((r) => r.lib === l && r.dpr === dpr)]));
    if (!byLib.engine) continue;
    out.push(`### dpr ${dpr}`, '');
    out.push(`| zoom | metric | ${libs.map((l) => LIB_NAMES[l]).join(' | ')} |`);
    out.push(`|---|---|${libs.map(() => '---:').join('|')}|`);
    const visibles = Object.keys(byLib.engine.result.pan);
    for (const v of visibles) {
      const cell = (lib, f) => {
        const r = byLib[lib]?.result?.pan?.[v];
        return r ? f(r, byLib[lib]) : '–';
      };
      const row = (label, f) => out.push(`| ${visibleName(v)} | ${label} | ${libs.map((l) => cell(l, f)).join(' | ')} |`);
      row('interval median ms', (r, all) => `**${fmt(r.intervalMedian)}** <sub>p95 ${fmt(r.intervalP95)}; runs ${all.runs.map((x) => fmt(x.pan[v]?.intervalMedian)).join(', ')}</sub>`);
      row('work median ms', (r) => `${fmt(r.workMedian)} <sub>p95 ${fmt(r.workP95)}</sub>`);
      row('draw calls / frame', (r) => fmtInt(r.gpu?.drawCalls));
      row('vertices / frame', (r) => fmtInt(r.gpu?.vertices));
      row('uploaded bytes / frame', (r) => fmtInt(r.gpu?.bufferBytes));
      row('texture uploads / frame', (r) => fmtInt(r.gpu?.textureUploads));
      row('candles drawn', (r) => fmtInt(r.gpu?.seriesInstances));
      row('candle px', (r) => fmtInt(r.gpu?.seriesPixels));
      row('labels re-laid-out / frame', (r) => fmtInt(r.gpu?.textLayouts));
    }
    out.push('');
    const e = byLib.engine.result.pan[5000];
    const p = byLib.pixi?.result?.pan?.[5000];
    const b = byLib['engine-before']?.result?.pan?.[5000];
    if (e && p) {
      targetLines.push(
        `| pan interval median, 5,000 visible, ≤ the bare Pixi chart's | ${dpr} | ${fmt(p.intervalMedian)} |${withBefore ? ` ${b ? fmt(b.intervalMedian) : '–'} |` : ''} ${fmt(e.intervalMedian)} | ${e.intervalMedian <= p.intervalMedian * 1.02 ? 'yes' : '**no**'} |`,
      );
    }
  }
  out.push('### Target (issue 15, same run)', '', ...targetLines);
  return out.join('\n');
}

/**
 * The first-frame scenario (issue 25 §4): from handing the data over to the frame after the first paint,
 * at 1M and 10M bars, beside lightweight-charts (1M only: at 10M it needs minutes) and the bare Pixi chart
 * (the floor of this stack). Budgets: 1M ≤ 180 ms and ≥ 15× lightweight-charts (DESIGN §7); 10M ≤ 300 ms.
 */
export function firstFrameReport(results, { title, dprs, load }) {
  const out = [`## ${title}`, '', `Load average at the end: ${load.map((l) => l.toFixed(1)).join(' / ')}.`, ''];
  if (results.some((r) => r.lib === 'engine' && r.result?.load?.columnar)) {
    out.push(
      'The engine is handed typed columns (`setCandleColumns`: six Float64Arrays it keeps, validated in one pass, no copy),',
      'built before the timed section with the `Candle` objects then released and collected, as a columnar source',
      '(a binary response, a worker) never makes them. lightweight-charts and the bare Pixi chart get their usual input.',
      '',
    );
  }
  out.push('| dpr | bars | lightweight-charts | bare Pixi chart | engine (its call / first paint) | engine vs lightweight-charts | engine vs bare Pixi | budget | met |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---|:---:|');
  for (const dpr of dprs) {
    for (const bars of FIRST_FRAME_SIZES) {
      const b = find(results, 'lwc', bars, dpr);
      const p = find(results, 'pixi', bars, dpr);
      const e = find(results, 'engine', bars, dpr);
      if (!e) continue;
      const ms = e.load.presentedMs;
      const vsLwc = b ? ratio(b.load.presentedMs, ms) : Number.NaN;
      const big = bars >= 1e7;
      const met = big ? ms <= 300 : ms <= 180 && vsLwc >= 15;
      const cells = [dpr, sizeName(bars), fmt(b?.load.presentedMs), fmt(p?.load.presentedMs), `${fmt(ms)} (${fmt(e.load.syncMs)} / ${fmt(e.load.paintedMs)})`, fmtRatio(vsLwc), fmtRatio(p ? ratio(p.load.presentedMs, ms) : Number.NaN)];
      out.push(`| ${cells.join(' | ')} | ${big ? '≤ 300 ms' : '≤ 180 ms, ≥ 15×'} | ${met ? 'yes' : '**no**'} |`);
    }
  }
  return out.join('\n');
}

/** The bar counts of the first-frame scenario. */
export const FIRST_FRAME_SIZES = [1_000_000, 10_000_000];

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

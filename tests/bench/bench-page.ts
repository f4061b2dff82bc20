// The benchmark page. scripts/bench.mjs opens it once per (chart, bar count, device pixel ratio) and
// calls window.__bench.run(scenario, params); every scenario returns plain numbers.
// To add a scenario (e.g. "four live panels"), register a function in `scenarios` below and list it
// in SCENARIOS in scripts/bench.mjs.
import { generateCandles, nextTick, rng } from '../harness/ohlcv';
import { createBenchChart, hoverAt, type BenchChart, type GpuFrame, type Lib } from './charts';
import { nextFrame, resetFrameWork, runFrames, settle, stats, type FrameSamples } from './frame-meter';

export interface SessionParams {
  lib: Lib;
  bars: number;
  seed: number;
  /** Frames per pan / zoom run. */
  frames: number;
  liveUpdates: number;
  /** The live-update run stops after this long (a slow chart then reports fewer updates). */
  liveBudgetMs: number;
  /** Each pan run stops after this long (every pan step is alike, so fewer samples stay representative). */
  panBudgetMs: number;
  /**
   * Hand the data over as typed columns where the chart takes them (the engine's `setCandleColumns`):
   * the columns are built before the timed section and the `Candle` objects released and collected.
   */
  columns?: boolean;
}

type FrameStats = { workMedian: number; workP95: number; intervalMedian: number; intervalP95: number; steps: number };

function frameStats(s: FrameSamples): FrameStats {
  const w = stats(s.work);
  const i = stats(s.interval);
  return { workMedian: w.median, workP95: w.p95, intervalMedian: i.median, intervalP95: i.p95, steps: s.steps };
}

declare global {
  interface Window {
    gc?: () => void;
    __bench?: { ready: boolean; run: (name: string, params: unknown) => Promise<unknown> };
  }
  interface Performance {
    memory?: { usedJSHeapSize: number };
    measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }>;
  }
}

const host = document.getElementById('charts') as HTMLDivElement;

async function heap(): Promise<{ jsHeapMB: number; totalMB: number | null }> {
  for (let i = 0; i < 3; i++) {
    window.gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  const jsHeapMB = (performance.memory?.usedJSHeapSize ?? Number.NaN) / 2 ** 20;
  let totalMB: number | null = null;
  // Counts ArrayBuffer backing stores too (the engine's typed columns live there), when the
  // page is cross-origin isolated (the bench server sends COOP/COEP).
  if (window.crossOriginIsolated && performance.measureUserAgentSpecificMemory) {
    try {
      totalMB = (await performance.measureUserAgentSpecificMemory()).bytes / 2 ** 20;
    } catch {
      totalMB = null;
    }
  }
  return { jsHeapMB, totalMB };
}

function freshContainer(count = 1): HTMLDivElement[] {
  host.replaceChildren();
  const cols = Math.ceil(Math.sqrt(count));
  host.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  host.style.gridTemplateRows = `repeat(${Math.ceil(count / cols)}, 1fr)`;
  return Array.from({ length: count }, () => host.appendChild(document.createElement('div')));
}

/** Load, memory, pan (200 and 5,000 bars visible), zoom 100 → 20,000 bars, live updates. */
async function session(p: SessionParams): Promise<Record<string, unknown>> {
  const [el] = freshContainer(1);
  const before = await heap();
  const chart: BenchChart = await createBenchChart(p.lib, el);
  await settle(3);
  const data = generateCandles({ count: p.bars, seed: p.seed });
  const lastBar = data[data.length - 1];
  const columnar = p.columns === true && chart.prepareColumns !== undefined;
  if (columnar) {
    chart.prepareColumns?.(data);
    // A columnar source (a binary response, a worker) never makes the objects: drop them before timing.
    data.length = 0;
    window.gc?.();
  } else {
    chart.prepare(data);
  }
  await settle(2);

  // Load to first frame: the timed call, then the frame that paints it, then the next frame start.
  resetFrameWork();
  const t0 = performance.now();
  chart.load();
  const syncMs = performance.now() - t0;
  await nextFrame();
  const paintedMs = performance.now() - t0;
  const firstFrameWorkMs = syncMs + resetFrameWork();
  await nextFrame();
  const presentedMs = performance.now() - t0;
  data.length = 0;

  hoverAt(el, 800, 400);
  await settle(5);
  const after = await heap();

  const n = p.bars;
  const pan = async (visible: number): Promise<FrameStats> => {
    chart.setRange(n - visible, n + 5);
    await settle(5);
    const perFrame = visible / 300;
    return frameStats(await runFrames(p.frames, (i) => chart.setRange(n - visible - (i + 1) * perFrame, n + 5 - (i + 1) * perFrame), p.panBudgetMs));
  };
  const pan200 = await pan(200);
  const pan5000 = await pan(5000);

  chart.setRange(n - 100, n + 5);
  await settle(5);
  const zoom = frameStats(
    await runFrames(
      p.frames,
      (i) => {
        const span = 100 * Math.pow(200, i / (p.frames - 1));
        chart.setRange(n - span, n + 5);
      },
    ),
  );

  chart.setRange(n - 200, n + 5);
  await settle(5);
  const rand = rng(p.seed + 1);
  let last = lastBar;
  const live = frameStats(
    await runFrames(
      p.liveUpdates,
      (i) => {
        // Mostly ticks of the forming bar; every 100th update opens the next bar.
        last = i % 100 === 99 ? { ...last, time: last.time + 60, open: last.close, high: last.close, low: last.close, volume: 0 } : nextTick(last, rand);
        chart.update(last);
      },
      p.liveBudgetMs,
    ),
  );

  chart.destroy();
  await settle(2);
  return {
    lib: p.lib,
    bars: p.bars,
    dpr: window.devicePixelRatio,
    load: { syncMs, firstFrameWorkMs, paintedMs, presentedMs, columnar },
    memory: {
      jsHeapMB: after.jsHeapMB - before.jsHeapMB,
      totalMB: after.totalMB !== null && before.totalMB !== null ? after.totalMB - before.totalMB : null,
    },
    pan200,
    pan5000,
    zoom,
    live,
  };
}

export interface GpuParams {
  lib: Lib;
  bars: number;
  seed: number;
  frames: number;
  /** Bars visible in each pan run. */
  visible: number[];
  /** Then one more pan at this many bars with four indicators (six lines) on, where the chart has them. */
  indicatorsVisible: number | null;
  panBudgetMs: number;
}

type GpuRun = FrameStats & { gpu: Record<keyof GpuFrame, number | null> | null };

/**
 * GPU-side cost (issue 15): pans at several zoom levels, each frame one `setVisibleRange` followed
 * by a synchronous paint where the chart has one (engine `renderNow`, the bare Pixi chart's render;
 * lightweight-charts paints in its own rAF). The frame interval is bounded by what the GPU process
 * does with the frame (SwiftShader rasterises on the CPU); the counters say what reached the GPU.
 */
async function gpu(p: GpuParams): Promise<Record<string, unknown>> {
  const [el] = freshContainer(1);
  const chart: BenchChart = await createBenchChart(p.lib, el);
  await settle(3);
  const data = generateCandles({ count: p.bars, seed: p.seed });
  chart.prepare(data);
  chart.load();
  data.length = 0;
  await settle(3);
  hoverAt(el, 800, 400);
  await settle(5);
  const n = p.bars;
  const runs: Record<string, GpuRun> = {};
  const passes: Array<[key: string, visible: number]> = p.visible.map((v) => [String(v), v]);
  if (p.indicatorsVisible && chart.showIndicators) passes.push([`${p.indicatorsVisible}+indicators`, p.indicatorsVisible]);
  for (const [key, visible] of passes) {
    if (key.endsWith('+indicators')) chart.showIndicators?.();
    chart.setRange(n - visible, n + 5);
    chart.renderNow?.();
    await settle(5);
    const perFrame = visible / 300;
    const frames: GpuFrame[] = [];
    const samples = await runFrames(
      p.frames,
      (i) => {
        chart.setRange(n - visible - (i + 1) * perFrame, n + 5 - (i + 1) * perFrame);
        if (chart.renderNow) {
          chart.renderNow();
          if (chart.gpuFrame) frames.push({ ...chart.gpuFrame() });
        }
      },
      p.panBudgetMs,
    );
    const med = (k: keyof GpuFrame): number | null => {
      const xs = frames.map((f) => f[k]).filter((x): x is number => typeof x === 'number');
      return xs.length ? stats(xs).median : null;
    };
    const keys: (keyof GpuFrame)[] = ['drawCalls', 'vertices', 'bufferBytes', 'textureUploads', 'seriesInstances', 'textLayouts', 'seriesPixels'];
    runs[key] = { ...frameStats(samples), gpu: frames.length ? (Object.fromEntries(keys.map((k) => [k, med(k)])) as GpuRun['gpu']) : null };
  }
  chart.destroy();
  await settle(2);
  return { lib: p.lib, bars: p.bars, dpr: window.devicePixelRatio, pan: runs };
}

const scenarios: Record<string, (params: never) => Promise<unknown>> = {
  session,
  gpu,
};

window.__bench = {
  ready: true,
  run: (name, params) => {
    const fn = scenarios[name];
    if (!fn) throw new Error(`Unknown bench scenario: ${name}`);
    return fn(params as never);
  },
};

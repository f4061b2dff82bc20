import {
  CandlestickSeries,
  createChart as createLightweightChart,
  CrosshairMode,
  HistogramSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { createChart as createEngine, toCandleColumns, type Candle, type CandleColumns, type ChartEngine } from '../../src/engine';
import { presetDrawings, presetIndicators, presetLines } from '../harness/chart-presets';
import { BarePixiChart } from './bare-pixi';
import { createChart as createEngineBefore } from './before-engine';
import { countGl } from './gl-counter';

/**
 * The engine, lightweight-charts, the bare Pixi chart (the stack's floor, `bare-pixi.ts`), and the
 * engine at another git ref (`--before=<ref>`, see before-engine.ts).
 */
export type Lib = 'engine' | 'lwc' | 'pixi' | 'engine-before';

/** What one frame sent to the GPU (WebGL charts only). */
export interface GpuFrame {
  drawCalls: number;
  vertices: number;
  bufferBytes: number;
  textureUploads: number;
  /** Candle instances drawn (engine: columns; bare chart: LOD candles); null when not known. */
  seriesInstances: number | null;
  /** Labels re-laid-out this frame (engine only). */
  textLayouts: number | null;
  /** Device px covered by candle/volume quads (engine only). */
  seriesPixels: number | null;
}

/**
 * The two charts behind one interface, each set up with the same visible features: candles,
 * volume, axes, grid, crosshair under the pointer, last-price line and six price lines (alert,
 * order, stop, take-profit, position, liquidation). The engine also shows three drawings
 * (lightweight-charts has none). Only public APIs are used.
 */
export interface BenchChart {
  /** Input prepared outside the timed section. */
  prepare(data: Candle[]): void;
  /**
   * The same, as typed columns (the engine's `setCandleColumns`): built here, outside the timed
   * section; the chart keeps no reference to `data` afterwards, so the caller can drop the objects.
   */
  prepareColumns?(data: Candle[]): void;
  /** Timed: hands the prepared data to the chart. */
  load(): void;
  setRange(from: number, to: number): void;
  update(c: Candle): void;
  destroy(): void;
  /** Paints now (the WebGL charts render on demand); lightweight-charts has no such call. */
  renderNow?(): void;
  /** Counters of the last paint (WebGL charts). */
  gpuFrame?(): GpuFrame;
  /** SMA 20, EMA 50, VWAP and Bollinger bands (three lines): six polylines (the engine only). */
  showIndicators?(): void;
}

const UP = '#26a69a';
const DOWN = '#ef5350';

export async function createBenchChart(lib: Lib, el: HTMLElement): Promise<BenchChart> {
  if (lib === 'pixi') return barePixiChart(el);
  if (lib === 'engine-before') return engineChart(el, createEngineBefore);
  return lib === 'engine' ? engineChart(el) : lightweightChart(el);
}

async function barePixiChart(el: HTMLElement): Promise<BenchChart> {
  const chart = await BarePixiChart.create(el, window.devicePixelRatio || 1);
  const counters = countGl(chart.gl);
  let data: Candle[] | null = null;
  let last: GpuFrame = { drawCalls: 0, vertices: 0, bufferBytes: 0, textureUploads: 0, seriesInstances: 0, textLayouts: null, seriesPixels: null };
  let raf: number | null = null;
  const paint = () => {
    counters.reset();
    const seriesInstances = chart.render();
    last = { drawCalls: counters.drawCalls, vertices: counters.vertices, bufferBytes: counters.bufferBytes, textureUploads: counters.textureUploads, seriesInstances, textLayouts: null, seriesPixels: null };
  };
  // Render on demand, once per frame, like the engine.
  const invalidate = () => {
    raf ??= requestAnimationFrame(() => {
      raf = null;
      paint();
    });
  };
  el.addEventListener('pointermove', (e) => {
    const r = el.getBoundingClientRect();
    chart.setCrosshair(e.clientX - r.left, e.clientY - r.top);
    invalidate();
  });
  return {
    prepare(d) {
      data = d;
    },
    load() {
      const d = data ?? [];
      data = null;
      chart.setData(d);
      chart.setRange(d.length - 200, d.length + 5);
      invalidate();
    },
    setRange(from, to) {
      chart.setRange(from, to);
      invalidate();
    },
    update() {
      // Not part of the baseline (it answers the GPU-side question only).
    },
    destroy() {
      if (raf !== null) cancelAnimationFrame(raf);
      chart.destroy();
    },
    renderNow() {
      if (raf !== null) cancelAnimationFrame(raf);
      raf = null;
      paint();
    },
    gpuFrame: () => last,
  };
}

async function engineChart(el: HTMLElement, create: typeof createEngine = createEngine): Promise<BenchChart> {
  const chart: ChartEngine = await create(el, { instrument: { tickSize: 0.1, precision: 1 } });
  // An engine from before getRenderStats() existed is counted at its context's WebGL calls
  // (getContext returns the context the engine created on its canvas).
  const canvas = el.querySelector('canvas');
  const own = typeof chart.getRenderStats === 'function';
  const counters = own || !canvas ? null : countGl(canvas.getContext('webgl2') as WebGL2RenderingContext);
  // The drawings and lines of every bench chart (they need only the latest bars).
  const decorate = (d: Candle[]) => {
    chart.setDrawings(presetDrawings(d, ['line', 'rectangle', 'fib']));
    if (d.length) chart.setLines(presetLines(d[d.length - 1]));
  };
  let data: Candle[] | null = null;
  let columns: { cols: CandleColumns; tail: Candle[] } | null = null;
  return {
    prepare(d) {
      data = d;
    },
    // The engine at another ref may predate setCandleColumns: it keeps the objects path.
    prepareColumns:
      typeof chart.setCandleColumns === 'function'
        ? (d) => {
            // Room for the live bars the session adds, so they do not grow ten million rows.
            columns = { cols: toCandleColumns(d, 1024), tail: d.slice(-200) };
          }
        : undefined,
    load() {
      if (columns) {
        const { cols, tail } = columns;
        columns = null;
        chart.setCandleColumns(cols);
        decorate(tail);
        return;
      }
      const d = data ?? [];
      data = null;
      chart.setCandles(d);
      decorate(d);
    },
    setRange: (from, to) => chart.setVisibleRange({ from, to }),
    update: (c) => chart.updateLastCandle(c),
    destroy: () => chart.destroy(),
    renderNow() {
      counters?.reset();
      chart.renderNow();
    },
    showIndicators: () => chart.setIndicators(presetIndicators(['sma', 'ema', 'vwap', 'bb'])),
    gpuFrame() {
      if (counters) {
        const { drawCalls, vertices, bufferBytes, textureUploads } = counters;
        return { drawCalls, vertices, bufferBytes, textureUploads, seriesInstances: null, textLayouts: null, seriesPixels: null };
      }
      const s = chart.getRenderStats();
      return {
        drawCalls: s.drawCalls,
        vertices: s.vertices,
        bufferBytes: s.bufferBytes,
        textureUploads: s.textureUploads,
        seriesInstances: s.seriesColumns,
        textLayouts: s.textLayouts,
        seriesPixels: s.seriesPixels,
      };
    },
  };
}

function lightweightChart(el: HTMLElement): BenchChart {
  const chart: IChartApi = createLightweightChart(el, {
    autoSize: true,
    layout: { background: { color: '#131722' }, textColor: '#b2b5be' },
    grid: { vertLines: { color: '#1f2433' }, horzLines: { color: '#1f2433' } },
    crosshair: { mode: CrosshairMode.Normal },
    timeScale: { timeVisible: true, rightOffset: 5 },
  });
  const candles: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    wickUpColor: UP,
    wickDownColor: DOWN,
    borderVisible: false,
    priceFormat: { type: 'price', precision: 1, minMove: 0.1 },
  });
  const volume: ISeriesApi<'Histogram'> = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' } });
  volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  let bars: Array<{ time: UTCTimestamp; open: number; high: number; low: number; close: number }> = [];
  let vols: Array<{ time: UTCTimestamp; value: number; color: string }> = [];
  let last: Candle | null = null;
  return {
    prepare(d) {
      bars = d.map((c) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close }));
      vols = d.map((c) => ({ time: c.time as UTCTimestamp, value: c.volume, color: c.close >= c.open ? 'rgba(38,166,154,0.35)' : 'rgba(239,83,80,0.35)' }));
      last = d[d.length - 1] ?? null;
    },
    load() {
      candles.setData(bars);
      volume.setData(vols);
      bars = [];
      vols = [];
      if (last) {
        for (const l of presetLines(last)) {
          candles.createPriceLine({ price: l.price, color: l.kind === 'alert' ? '#ff9800' : UP, title: l.kind, lineStyle: LineStyle.Dashed });
        }
      }
    },
    setRange: (from, to) => chart.timeScale().setVisibleLogicalRange({ from, to }),
    update(c) {
      candles.update({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close });
      volume.update({ time: c.time as UTCTimestamp, value: c.volume, color: c.close >= c.open ? 'rgba(38,166,154,0.35)' : 'rgba(239,83,80,0.35)' });
    },
    destroy: () => chart.remove(),
  };
}

/** Moves the pointer over the chart so both show their crosshair (DOM events, as a user would). */
export function hoverAt(el: HTMLElement, x: number, y: number): void {
  const r = el.getBoundingClientRect();
  const target = document.elementFromPoint(r.left + x, r.top + y) ?? el;
  const init = { clientX: r.left + x, clientY: r.top + y, bubbles: true, cancelable: true, view: window };
  target.dispatchEvent(new PointerEvent('pointermove', { ...init, pointerType: 'mouse', isPrimary: true }));
  target.dispatchEvent(new MouseEvent('mousemove', init));
}

// The chart engine demo (/engine-demo): the engine with generated data, no account needed. It plays
// the app's part — it owns the drawings and lines, answers needHistory with older pages and streams
// live ticks — using only the engine's public API. Query parameters make scenes deterministic for
// the screenshot tests (see scene-params.ts).
import { createChart, DRAWING_COLORS, DRAWING_MODE_LABELS, DRAWING_MODES, type Candle, type ChartEngine, type ChartLine, type Drawing, type DrawingColor, type Tool } from '../../engine';
import { generateCandles, nextTick, rng } from '../../../tests/harness/ohlcv';
import { offscreenLines, presetDrawings, presetIndicators, presetLines, presetTimeLines, stackedLines } from '../../../tests/harness/chart-presets';
import { readParams } from './scene-params';

const HISTORY_PAGE = 300;
const COLOR_HEX: Record<DrawingColor, string> = { yellow: '#f5c518', green: '#4caf50', red: '#f23645', blue: '#2962ff' };

interface DemoState {
  engine: ChartEngine | null;
  drawings: Drawing[];
  lines: ChartLine[];
  events: Array<{ type: string; payload: unknown }>;
  ready: boolean;
  historyRequests: number[];
  /** A needHistory was received and its page not yet handed over. */
  historyPending: boolean;
}

declare global {
  interface Window {
    __engine?: ChartEngine;
    __demo?: DemoState & { createChart: typeof createChart; generateCandles: typeof generateCandles };
  }
}

const params = readParams(location.search);
const chartEl = document.getElementById('chart') as HTMLDivElement;
const toolbar = document.getElementById('toolbar') as HTMLDivElement;
const logEl = document.createElement('span');
logEl.id = 'log';

const state: DemoState = { engine: null, drawings: [], lines: [], events: [], ready: false, historyRequests: [], historyPending: false };
window.__demo = { ...state, createChart, generateCandles };
const demo = window.__demo;

if (params.width !== null) chartEl.style.width = `${params.width}px`;
if (params.height !== null) chartEl.style.height = `${params.height}px`;
toolbar.hidden = params.bare;

/** The full generated series: the visible part plus older pages served on needHistory. */
function makeSeries(bars: number): { visible: Candle[]; older: Candle[] } {
  const historyBars = params.history === 'page' && bars <= 100_000 ? HISTORY_PAGE * 10 : 0;
  const endTime = params.deterministic ? undefined : Math.floor(Date.now() / 1000 / params.interval) * params.interval;
  const all = generateCandles({ count: bars + historyBars, seed: params.seed, interval: params.interval, tickSize: params.tick, endTime });
  return { visible: all.slice(historyBars), older: all.slice(0, historyBars) };
}

function log(type: string, payload: unknown): void {
  demo.events.push({ type, payload });
  if (demo.events.length > 200) demo.events.shift();
  logEl.textContent = `${type} ${JSON.stringify(payload)?.slice(0, 120) ?? ''}`;
}

let series = makeSeries(params.bars);
let liveTimer: ReturnType<typeof setInterval> | null = null;

async function start(): Promise<void> {
  const fixedNow = params.now ?? (series.visible.length ? (series.visible[series.visible.length - 1].time + 23) * 1000 : 0);
  const engine = await createChart(chartEl, {
    devicePixelRatio: params.dpr,
    instrument: { tickSize: params.tick, precision: params.precision },
    now: params.deterministic ? () => fixedNow : undefined,
    toolOptions: { magnet: params.magnet, symbol: 'BTCUSDT' },
    createId: params.deterministic ? sequentialIds() : undefined,
  });
  demo.engine = engine;
  window.__engine = engine;
  wire(engine);
  if (params.scene !== 'empty') engine.setCandles(series.visible);
  demo.drawings = presetDrawings(series.visible, params.draw);
  engine.setDrawings(demo.drawings);
  engine.setIndicators(presetIndicators(params.indicators));
  if (params.lines && series.visible.length) {
    const last = series.visible[series.visible.length - 1];
    const sets = { preset: () => [...presetLines(last), ...presetTimeLines(series.visible)], offscreen: () => offscreenLines(series.visible), stacked: () => stackedLines(last) };
    demo.lines = sets[params.lineSet]();
    engine.setLines(demo.lines);
  }
  if (params.range) engine.setVisibleRange(params.range);
  if (params.select) engine.selectDrawing(params.select);
  if (params.tool) engine.setTool(params.tool as Tool);
  engine.renderNow();
  if (params.crosshair) hover(params.crosshair.x, params.crosshair.y);
  engine.renderNow();
  if (params.live) startLive();
  buildToolbar(engine);
  demo.ready = true;
}

function sequentialIds(): () => string {
  let n = 0;
  return () => `d${++n}`;
}

/** Moves the pointer over the chart as a user would (the crosshair follows DOM pointer events). */
function hover(x: number, y: number): void {
  const canvas = chartEl.querySelector('canvas');
  if (!canvas) return;
  const r = canvas.getBoundingClientRect();
  canvas.dispatchEvent(new PointerEvent('pointermove', { clientX: r.left + x, clientY: r.top + y, bubbles: true, pointerType: 'mouse' }));
}

function wire(engine: ChartEngine): void {
  engine.on('drawingCommitted', ({ drawing, created }) => {
    demo.drawings = created ? [...demo.drawings, drawing] : demo.drawings.map((d) => (d.id === drawing.id ? drawing : d));
    engine.setDrawings(demo.drawings);
    log('drawingCommitted', { id: drawing.id, kind: drawing.kind, created });
  });
  engine.on('drawingDeleted', ({ id }) => {
    demo.drawings = demo.drawings.filter((d) => d.id !== id);
    engine.setDrawings(demo.drawings);
    log('drawingDeleted', { id });
  });
  engine.on('lineDragged', ({ id, price }) => {
    demo.lines = demo.lines.map((l) => (l.id === id && l.kind !== 'time' ? { ...l, price } : l));
    engine.setLines(demo.lines);
    log('lineDragged', { id, price });
  });
  engine.on('toolChanged', ({ tool }) => {
    syncToolButtons(tool);
    log('toolChanged', { tool });
  });
  engine.on('selectionChanged', ({ id }) => log('selectionChanged', { id }));
  engine.on('needHistory', (beforeTime) => {
    demo.historyRequests.push(beforeTime);
    log('needHistory', { beforeTime });
    if (params.history === 'hold') return;
    const page = series.older.splice(Math.max(0, series.older.length - HISTORY_PAGE), HISTORY_PAGE);
    const answer = () => {
      demo.historyPending = false;
      engine.prependCandles(page);
    };
    // A network round trip (scenes answer at once unless they ask for a latency).
    demo.historyPending = true;
    if (params.latency === 0) answer();
    else setTimeout(answer, params.latency);
  });
}

function startLive(): void {
  const engine = demo.engine;
  if (!engine || liveTimer) return;
  const rand = rng(params.seed + 7);
  liveTimer = setInterval(() => {
    const bars = series.visible;
    const last = bars[bars.length - 1];
    if (!last) return;
    const barTime = Math.floor(Date.now() / 1000 / params.interval) * params.interval;
    const next: Candle =
      barTime > last.time
        ? { time: barTime, open: last.close, high: last.close, low: last.close, close: last.close, volume: 0 }
        : nextTick(last, rand, params.tick);
    if (barTime > last.time) bars.push(next);
    else bars[bars.length - 1] = next;
    engine.updateLastCandle(next);
  }, 250);
}

function stopLive(): void {
  if (liveTimer) clearInterval(liveTimer);
  liveTimer = null;
}

const toolButtons = new Map<Tool, HTMLButtonElement>();

function syncToolButtons(tool: Tool): void {
  for (const [t, b] of toolButtons) b.setAttribute('aria-pressed', String(t === tool));
}

function button(label: string, onClick: () => void, pressed?: boolean): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (pressed !== undefined) b.setAttribute('aria-pressed', String(pressed));
  b.addEventListener('click', onClick);
  return b;
}

function group(label: string, ...children: HTMLElement[]): HTMLDivElement {
  const g = document.createElement('div');
  g.className = 'group';
  g.setAttribute('role', 'group');
  g.setAttribute('aria-label', label);
  g.append(...children);
  return g;
}

function buildToolbar(engine: ChartEngine): void {
  const tools = DRAWING_MODES.map((mode) => {
    const b = button(DRAWING_MODE_LABELS[mode], () => {
      engine.setTool(mode);
      syncToolButtons(mode);
    }, engine.getTool() === mode);
    toolButtons.set(mode, b);
    return b;
  });
  const colors = DRAWING_COLORS.map((c) => {
    const b = button('', () => {
      engine.setToolOptions({ color: c });
      for (const x of colorButtons) x.setAttribute('aria-pressed', String(x === b));
    }, c === 'blue');
    b.className = 'swatch';
    b.title = c;
    b.setAttribute('aria-label', c);
    b.style.background = COLOR_HEX[c];
    return b;
  });
  const colorButtons = colors;
  const magnet = button('Magnet', () => {
    const on = magnet.getAttribute('aria-pressed') !== 'true';
    magnet.setAttribute('aria-pressed', String(on));
    engine.setToolOptions({ magnet: on });
  }, params.magnet);
  const size = document.createElement('select');
  size.setAttribute('aria-label', 'Bars');
  for (const n of [300, 5000, 100_000, 1_000_000]) {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = `${n.toLocaleString('en-US')} bars`;
    o.selected = n === params.bars;
    size.append(o);
  }
  size.addEventListener('change', () => {
    series = makeSeries(Number(size.value));
    engine.setCandles(series.visible);
    demo.drawings = presetDrawings(series.visible, params.draw);
    engine.setDrawings(demo.drawings);
  });
  const live = button('Live', () => {
    const on = live.getAttribute('aria-pressed') !== 'true';
    live.setAttribute('aria-pressed', String(on));
    if (on) startLive();
    else stopLive();
  }, params.live);
  const lines = button('Order lines', () => {
    const on = lines.getAttribute('aria-pressed') !== 'true';
    lines.setAttribute('aria-pressed', String(on));
    const last = series.visible[series.visible.length - 1];
    demo.lines = on && last ? [...presetLines(last), ...presetTimeLines(series.visible)] : [];
    engine.setLines(demo.lines);
  }, params.lines);
  const indicators = button('Indicators', () => {
    const on = indicators.getAttribute('aria-pressed') !== 'true';
    indicators.setAttribute('aria-pressed', String(on));
    engine.setIndicators(on ? presetIndicators(['sma', 'ema', 'vwap', 'bb']) : []);
  }, params.indicators.length > 0);
  const clear = button('Clear drawings', () => {
    demo.drawings = [];
    engine.setDrawings([]);
  });
  toolbar.append(group('Tools', ...tools), group('Colour', ...colors), group('Options', magnet, live, lines, indicators, clear), group('Data', size), logEl);
}

void start();
